package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/deliver/destinations"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/publish/place"
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
			d, err := destinations.Open(opt.URL, destinations.Options{Postgres: &opt})
			if err != nil {
				return err
			}
			return deliverTo(ctx, cmd, d, dir, opt.Tenant)
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
