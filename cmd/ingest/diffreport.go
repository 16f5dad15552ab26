package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/integrity"
	"github.com/ocean-safety/ingest/place"
	"github.com/ocean-safety/ingest/snapdiff"
)

// writeDiffReport writes <name>.diff.md and <name>.diff.json beside a newly
// published snapshot, against the one latest pointed at before (--diff):
// what a reviewer reads before consumers do. It returns where the Markdown
// went, or "" when there is nothing to compare (a first publish, or the
// same snapshot again).
func writeDiffReport(ctx context.Context, publish string, pub depot.Published) (string, error) {
	if pub.Previous == "" || pub.Reused {
		return "", nil
	}
	// The run's own copies where it has them; a download otherwise.
	local := func(dir, at string) (string, func(), error) {
		if dir != "" {
			return dir, func() {}, nil
		}
		return place.Snapshot(ctx, at)
	}
	oldDir, cleanOld, err := local(pub.PreviousLocal, pub.Previous)
	if err != nil {
		return "", err
	}
	defer cleanOld()
	if _, err := integrity.VerifyFiles(oldDir); err != nil { // a broken previous would diff as a change of the corpus
		return "", err
	}
	newDir, cleanNew, err := local(pub.Local, pub.Path)
	if err != nil {
		return "", err
	}
	defer cleanNew()
	rep, err := snapdiff.CompareContext(ctx, oldDir, newDir)
	if err != nil {
		return "", err
	}
	var md, js bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		return "", err
	}
	if err := rep.WriteJSON(&js); err != nil {
		return "", err
	}
	return place.PutDiff(ctx, publish, pub.Name, md.Bytes(), js.Bytes())
}

// diffReport writes the diff report of --diff and says where, on stderr; a
// failure is a warning: the snapshot is published either way.
func diffReport(ctx context.Context, cmd *cli.Command, publish string, pub depot.Published) {
	if where, err := writeDiffReport(ctx, publish, pub); err != nil {
		say(cmd, slog.LevelWarn, fmt.Sprintf("warning: the diff report: %v", err), "diff report failed", "error", err.Error())
	} else if where != "" {
		say(cmd, slog.LevelInfo, "diff: "+where, "diff report written", "path", where)
	}
}
