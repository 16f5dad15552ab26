package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/schema"
)

func thresholdsCommand() *cli.Command {
	return &cli.Command{
		Name:      "thresholds",
		Usage:     "print a snapshot's thresholds, read from chunks.parquet (Markdown proposal, or --json)",
		ArgsUsage: "SNAPSHOT",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "a JSON array of thresholds"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("thresholds needs one SNAPSHOT")
			}
			dir, cleanup, err := place.Trusted(ctx, cmd.Args().First())
			if err != nil {
				return err
			}
			defer cleanup()
			return console.PrintThresholds(cmd.Root().Writer, cmd.Bool("json"), func(fn func(schema.Threshold)) error {
				return artifacts.EachThreshold(ctx, dir, fn)
			})
		},
	}
}
