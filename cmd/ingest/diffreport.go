package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/place"
)

// diffReport writes the diff report of --diff and says where, on stderr; a
// failure is a warning: the snapshot is published either way.
func diffReport(ctx context.Context, cmd *cli.Command, publish string, pub depot.Published) {
	tell(cmd).DiffReport(place.WriteDiff(ctx, publish, pub))
}
