package main

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/place"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
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
			cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
			if err != nil {
				return err
			}
			defer cf.Close()
			if !cmd.Bool("json") { // the proposal, in memory bounded by its values
				var p thresholds.Proposal
				err = cf.Each(ctx, func(c schema.Chunk) error {
					for _, t := range c.Thresholds {
						p.Add(t)
					}
					return nil
				})
				if err == nil {
					_, err = p.WriteTo(cmd.Root().Writer)
				}
				return err
			}
			ts := []schema.Threshold{}
			err = cf.Each(ctx, func(c schema.Chunk) error {
				ts = append(ts, c.Thresholds...)
				return nil
			})
			if err != nil {
				return err
			}
			thresholds.Sort(ts)
			enc := json.NewEncoder(cmd.Root().Writer)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			return enc.Encode(ts)
		},
	}
}
