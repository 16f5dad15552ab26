package main

import (
	"context"
	"errors"

	"github.com/ocean-safety/ingest/publish/place"
	"github.com/urfave/cli/v3"
)

// errDiffers is what diff --exit-code returns when the snapshots differ: exit
// 1, like git diff --exit-code, with nothing printed beyond the report.
var errDiffers = errors.New("the snapshots differ")

// diffTrouble is a diff that could not be made under --exit-code (a
// snapshot missing or corrupt): exit 2, so CI tells it from "differs".
type diffTrouble struct{ error }

func (e diffTrouble) Unwrap() error { return e.error }

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "what changed between two snapshots: documents, chunks, thresholds, counts and components",
		ArgsUsage: "OLD NEW",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "md", Usage: "md (for a pull-request comment) or json"},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when the snapshots differ, 0 when they do not, 2 when they cannot be read (like git diff)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 2 {
				return usage("diff needs two snapshot folders, OLD and NEW")
			}
			format := cmd.String("format")
			if format != "md" && format != "json" {
				return usage("diff --format %q: want md or json", format)
			}
			rep, err := place.Compare(ctx, cmd.Args().Get(0), cmd.Args().Get(1))
			if err != nil && cmd.Bool("exit-code") && ctx.Err() == nil {
				return diffTrouble{err}
			}
			if err != nil {
				return err
			}
			if format == "json" {
				err = rep.WriteJSON(cmd.Root().Writer)
			} else {
				err = rep.WriteMarkdown(cmd.Root().Writer)
			}
			if err != nil {
				return err
			}
			if cmd.Bool("exit-code") && rep.Changed() {
				return errDiffers
			}
			return nil
		},
	}
}
