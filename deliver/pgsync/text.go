package pgsync

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// The plan and the report as ingest sync prints them: each written whole,
// in one Write.

// WriteText writes what a sync would do, and the --migrate it needs when
// it would not migrate the table it has to.
func (p *Plan) WriteText(w io.Writer) error {
	var b bytes.Buffer
	p.writeHead(&b, "plan: sync")
	if len(p.Migrations) > 0 {
		var vs []string
		for _, v := range p.Migrations {
			vs = append(vs, fmt.Sprint(v))
		}
		what := "apply migrations " + strings.Join(vs, ", ")
		if p.CreateTable {
			what = "create the table (migrations " + strings.Join(vs, ", ") + ")"
		}
		if !p.migrate {
			what += ": run with --migrate"
		}
		fmt.Fprintf(&b, "  table: would %s\n", what)
	}
	p.writeBody(&b, func(would, _ string) string { return would })
	fmt.Fprintf(&b, "nothing changed (--plan); load would use %s\n", p.Load)
	_, err := w.Write(b.Bytes())
	return err
}

// WriteText writes what a sync did.
func (r *Report) WriteText(w io.Writer) error {
	var b bytes.Buffer
	r.writeHead(&b, "sync")
	if r.CreateTable {
		fmt.Fprintf(&b, "  table: created (migrations %v)\n", r.Migrations)
	} else if len(r.Migrations) > 0 {
		fmt.Fprintf(&b, "  table: migrated (%v)\n", r.Migrations)
	}
	r.writeBody(&b, func(_, did string) string { return did })
	fmt.Fprintf(&b, "committed in %.2fs (load: %s)\n", r.Seconds, r.Load)
	_, err := w.Write(b.Bytes())
	return err
}

// writeHead names the snapshot, the table and the scope.
func (p *Plan) writeHead(b *bytes.Buffer, verb string) {
	s := p.Snapshot
	fmt.Fprintf(b, "%s %s (%d documents, %d chunks, %s %d dims)\n  into %s table %s, tenant %s, source %s\n",
		verb, s.Name, s.Documents, s.Rows, s.Embedder, s.Dims, p.Target, p.Table, p.Tenant, p.SourceLabel)
	switch {
	case p.Last == nil:
		fmt.Fprintln(b, "  last sync: never")
	case p.Last.ChunksSHA256 == s.ChunksSHA256:
		fmt.Fprintf(b, "  last sync: this snapshot, %s\n", p.Last.SyncedAt.UTC().Format("2006-01-02 15:04:05Z"))
	default:
		fmt.Fprintf(b, "  last sync: %s (%s, %d chunks), %s\n", p.Last.Snapshot, p.Last.Embedder, p.Last.Rows,
			p.Last.SyncedAt.UTC().Format("2006-01-02 15:04:05Z"))
	}
}

// writeBody writes the counts and the index, in the tense of a plan or of
// a report.
func (p *Plan) writeBody(b *bytes.Buffer, tense func(would, did string) string) {
	d, r := p.Documents, p.Rows
	fmt.Fprintf(b, "  documents: %d added, %d changed, %d regenerated, %d removed, %d unchanged\n",
		d.Added, d.Changed, d.Regenerated, d.Removed, d.Unchanged)
	fmt.Fprintf(b, "  rows: %s %d, %s %d (%d of removed documents, %d of old versions, %d regenerated), %d kept\n",
		tense("would insert", "inserted"), r.Insert, tense("would delete", "deleted"), r.Delete,
		r.DeleteGone, r.DeleteOldVersion, r.DeleteRegenerated, r.Keep)
	ix := p.Index.Kind
	if p.Index.Lists > 0 {
		ix += IndexKind(fmt.Sprintf(" lists=%d", p.Index.Lists))
	}
	had := ""
	if p.Index.Had != "" && p.Index.Action != IndexKeep {
		had = " (replacing " + p.Index.Had + ")"
	}
	fmt.Fprintf(b, "  index: %s %s%s\n", p.Index.Action, ix, had)
}
