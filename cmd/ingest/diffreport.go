package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/place"
)

// diffReport writes the diff report of --diff and says where, on stderr; a
// failure is a warning: the snapshot is published either way.
func diffReport(ctx context.Context, cmd *cli.Command, publish string, pub depot.Published) {
	if where, err := place.WriteDiff(ctx, publish, pub); err != nil {
		say(cmd, slog.LevelWarn, fmt.Sprintf("warning: the diff report: %v", err), "diff report failed", "error", err.Error())
	} else if where != "" {
		say(cmd, slog.LevelInfo, "diff: "+where, "diff report written", "path", where)
	}
}
