package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish/place"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "re-read a snapshot and check it against its manifest (files, rows, order, hashes, counts)",
		ArgsUsage: "DIR",
		Flags:     []cli.Flag{jsonFlag("the checks as JSON: {dir, ok, checks: [{name, status, detail, problems, more}]}")},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("verify needs one snapshot DIR")
			}
			dir, cleanup, err := place.Folder(ctx, cmd.Args().First()) // verify checks the files itself, and says more
			if err != nil {
				return err
			}
			defer cleanup()
			rep, err := verify.VerifyContext(ctx, dir)
			if err != nil {
				return err
			}
			rep.Dir = place.Shown(cmd.Args().First()) // a bucket's URL as given, not the folder it was fetched to
			if err := console.WriteVerify(cmd.Root().Writer, rep, cmd.Bool("json")); err != nil {
				return err
			}
			if failed := rep.Failed(); len(failed) > 0 {
				return fmt.Errorf("verify %s: %s failed", rep.Dir, strings.Join(failed, ", "))
			}
			return nil
		},
	}
}
