package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish/place"
)

func listCommand() *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the snapshots published to a folder or bucket (newest first, which is latest) and the parts of sharded runs left there",
		ArgsUsage: "DIR|URL",
		Flags:     []cli.Flag{jsonFlag("{place, latest, snapshots: [{name, path, created_at, documents, chunks, embedder, dims, header_writer, bytes, latest}], parts: [{path, run, shard, snapshot}]}")},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("list needs one DIR or bucket URL (what index --publish wrote to)")
			}
			l, err := place.List(ctx, cmd.Args().First())
			if err != nil {
				return placeError(err)
			}
			if cmd.Bool("json") {
				return console.WriteJSON(cmd.Root().Writer, l)
			}
			console.PrintListing(cmd.Root().Writer, l)
			return nil
		},
	}
}
