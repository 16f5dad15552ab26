package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish/place"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "print a snapshot's manifest summary and counts, read back from its files",
		ArgsUsage: "DIR",
		Flags:     []cli.Flag{jsonFlag("{dir, manifest, read_back: {documents, chunks, dims, counts}, ok}")},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("inspect needs one snapshot DIR")
			}
			dir, cleanup, err := place.Trusted(ctx, cmd.Args().First())
			if err != nil {
				return err
			}
			defer cleanup()
			in, err := verify.Inspect(ctx, dir)
			if err != nil {
				return err
			}
			in.Dir = place.Shown(cmd.Args().First()) // a bucket's URL as given, not the folder it was fetched to
			if err := console.WriteInspection(cmd.Root().Writer, in, cmd.Bool("json")); err != nil {
				return err
			}
			return in.Mismatch()
		},
	}
}
