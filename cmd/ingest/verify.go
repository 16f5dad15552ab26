package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/integrity"
	"github.com/ocean-safety/ingest/place"
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
			rep, err := integrity.VerifyContext(ctx, dir)
			if err != nil {
				return err
			}
			rep.Dir = place.Shown(cmd.Args().First()) // a bucket's URL as given, not the folder it was fetched to
			if cmd.Bool("json") {
				if err := writeJSON(cmd.Root().Writer, struct {
					*integrity.VerifyReport
					OK bool `json:"ok"`
				}{rep, rep.OK()}); err != nil {
					return err
				}
			} else {
				printVerify(cmd.Root().Writer, rep)
			}
			if failed := rep.Failed(); len(failed) > 0 {
				return fmt.Errorf("verify %s: %s failed", rep.Dir, strings.Join(failed, ", "))
			}
			return nil
		},
	}
}

// printVerify writes one line per check, its problems indented below it.
func printVerify(w io.Writer, rep *integrity.VerifyReport) {
	fmt.Fprintf(w, "verify %s\n", rep.Dir)
	for _, c := range rep.Checks {
		fmt.Fprintf(w, "  %-7s %-14s %s\n", c.Status, c.Name, c.Detail)
		for _, p := range c.Problems {
			fmt.Fprintf(w, "            %s\n", p)
		}
		if c.More > 0 {
			fmt.Fprintf(w, "            and %d more\n", c.More)
		}
	}
	if failed := rep.Failed(); len(failed) > 0 {
		fmt.Fprintf(w, "%d of %d checks failed: %s\n", len(failed), len(rep.Checks), strings.Join(failed, ", "))
	} else {
		fmt.Fprintf(w, "all %d checks passed\n", len(rep.Checks))
	}
}
