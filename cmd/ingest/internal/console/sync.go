package console

import (
	"fmt"
	"io"
	"strings"

	"github.com/ocean-safety/ingest/deliver/pgsync"
)

// printSyncHead names the snapshot, the table and the scope.
func printSyncHead(w io.Writer, verb string, p *pgsync.Plan) {
	s := p.Snapshot
	fmt.Fprintf(w, "%s %s (%d documents, %d chunks, %s %d dims)\n  into %s table %s, tenant %s, source %s\n",
		verb, s.Name, s.Documents, s.Rows, s.Embedder, s.Dims, p.Target, p.Table, p.Tenant, p.SourceLabel)
	switch {
	case p.Last == nil:
		fmt.Fprintln(w, "  last sync: never")
	case p.Last.ChunksSHA256 == s.ChunksSHA256:
		fmt.Fprintf(w, "  last sync: this snapshot, %s\n", p.Last.SyncedAt.UTC().Format("2006-01-02 15:04:05Z"))
	default:
		fmt.Fprintf(w, "  last sync: %s (%s, %d chunks), %s\n", p.Last.Snapshot, p.Last.Embedder, p.Last.Rows,
			p.Last.SyncedAt.UTC().Format("2006-01-02 15:04:05Z"))
	}
}

func printSyncBody(w io.Writer, p *pgsync.Plan, tense func(would, did string) string) {
	d, r := p.Documents, p.Rows
	fmt.Fprintf(w, "  documents: %d added, %d changed, %d regenerated, %d removed, %d unchanged\n",
		d.Added, d.Changed, d.Regenerated, d.Removed, d.Unchanged)
	fmt.Fprintf(w, "  rows: %s %d, %s %d (%d of removed documents, %d of old versions, %d regenerated), %d kept\n",
		tense("would insert", "inserted"), r.Insert, tense("would delete", "deleted"), r.Delete,
		r.DeleteGone, r.DeleteOldVersion, r.DeleteRegenerated, r.Keep)
	ix := p.Index.Kind
	if p.Index.Lists > 0 {
		ix += pgsync.IndexKind(fmt.Sprintf(" lists=%d", p.Index.Lists))
	}
	had := ""
	if p.Index.Had != "" && p.Index.Action != pgsync.IndexKeep {
		had = " (replacing " + p.Index.Had + ")"
	}
	fmt.Fprintf(w, "  index: %s %s%s\n", p.Index.Action, ix, had)
}

// PrintSyncPlan prints what a sync would do; needsMigrate says the table
// needs --migrate first.
func PrintSyncPlan(w io.Writer, p *pgsync.Plan, needsMigrate bool) {
	printSyncHead(w, "plan: sync", p)
	if len(p.Migrations) > 0 {
		var vs []string
		for _, v := range p.Migrations {
			vs = append(vs, fmt.Sprint(v))
		}
		what := "apply migrations " + strings.Join(vs, ", ")
		if p.CreateTable {
			what = "create the table (migrations " + strings.Join(vs, ", ") + ")"
		}
		if needsMigrate {
			what += ": run with --migrate"
		}
		fmt.Fprintf(w, "  table: would %s\n", what)
	}
	printSyncBody(w, p, func(would, _ string) string { return would })
	fmt.Fprintf(w, "nothing changed (--plan); load would use %s\n", p.Load)
}

// PrintSyncReport prints what a sync did.
func PrintSyncReport(w io.Writer, rep *pgsync.Report) {
	printSyncHead(w, "sync", &rep.Plan)
	if rep.CreateTable {
		fmt.Fprintf(w, "  table: created (migrations %v)\n", rep.Migrations)
	} else if len(rep.Migrations) > 0 {
		fmt.Fprintf(w, "  table: migrated (%v)\n", rep.Migrations)
	}
	printSyncBody(w, &rep.Plan, func(_, did string) string { return did })
	fmt.Fprintf(w, "committed in %.2fs (load: %s)\n", rep.Seconds, rep.Load)
}
