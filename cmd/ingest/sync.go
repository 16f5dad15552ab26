package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/pgsync"
	"github.com/ocean-safety/ingest/place"
)

func syncCommand() *cli.Command {
	return &cli.Command{
		Name:  "sync",
		Usage: "make a pgvector table hold a snapshot's chunks for one tenant and source label (one transaction)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder, or a bucket's URL/latest or URL/<name> (it must verify)"},
			&cli.StringFlag{Name: "to", Usage: "postgres://USER:PASSWORD@HOST/DB (the password is never printed)"},
			&cli.StringFlag{Name: "table", Value: pgsync.DefaultTable, Usage: "the chunks table"},
			&cli.StringFlag{Name: "tenant", Usage: "tenant UUID (default: the snapshot's tenant_id, if it is one)"},
			&cli.StringFlag{Name: "app-role", Value: pgsync.DefaultAppRole, Usage: "the role retrievers use: --migrate grants it SELECT, INSERT, DELETE"},
			&cli.BoolFlag{Name: "migrate", Usage: "create the table, or apply the migrations it lacks"},
			&cli.BoolFlag{Name: "plan", Usage: "say what the sync would do, change nothing"},
			&cli.StringFlag{Name: "index", Usage: "ANN index to leave: hnsw, or ivfflat with lists = floor(sqrt(rows)) (default: keep the table's; hnsw on a new table)"},
			&cli.StringFlag{Name: "load", Value: string(pgsync.DefaultLoad), Usage: "copy (COPY FROM STDIN, binary) or insert (multi-row INSERT, for servers that cannot COPY)"},
			&cli.BoolFlag{Name: "json", Usage: "print the plan or report as JSON"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			opt, err := syncOptions(cmd)
			if err != nil {
				return err
			}
			dir, cleanup, err := place.Snapshot(ctx, opt.Snapshot) // a bucket's URL/latest is downloaded
			if err != nil {
				return err
			}
			defer cleanup()
			opt.Snapshot = dir
			w := cmd.Root().Writer
			if cmd.Bool("plan") {
				p, err := pgsync.PlanSync(ctx, opt)
				if err != nil {
					return err
				}
				if cmd.Bool("json") {
					return writeJSON(w, p)
				}
				printSyncPlan(w, p, !opt.Migrate)
				return nil
			}
			rep, err := pgsync.Sync(ctx, opt)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return writeJSON(w, rep)
			}
			printSyncReport(w, rep)
			return nil
		},
	}
}

// syncOptions turns the flags into sync options; a bad value is a usage error.
func syncOptions(cmd *cli.Command) (pgsync.Options, error) {
	opt := pgsync.Options{Snapshot: cmd.String("snapshot"), URL: cmd.String("to"), Table: cmd.String("table"),
		Tenant: cmd.String("tenant"), AppRole: cmd.String("app-role"), Migrate: cmd.Bool("migrate")}
	if opt.Snapshot == "" || opt.URL == "" {
		return opt, usage("sync needs --snapshot DIR|URL and --to postgres://…")
	}
	opt.Index, opt.Load = pgsync.IndexKind(cmd.String("index")), pgsync.Load(cmd.String("load"))
	if err := opt.Validate(); err != nil {
		return opt, usageError{err}
	}
	return opt, nil
}

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

func printSyncPlan(w io.Writer, p *pgsync.Plan, needsMigrate bool) {
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

func printSyncReport(w io.Writer, rep *pgsync.Report) {
	printSyncHead(w, "sync", &rep.Plan)
	if rep.CreateTable {
		fmt.Fprintf(w, "  table: created (migrations %v)\n", rep.Migrations)
	} else if len(rep.Migrations) > 0 {
		fmt.Fprintf(w, "  table: migrated (%v)\n", rep.Migrations)
	}
	printSyncBody(w, &rep.Plan, func(_, did string) string { return did })
	fmt.Fprintf(w, "committed in %.2fs (load: %s)\n", rep.Seconds, rep.Load)
}
