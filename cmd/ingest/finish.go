package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/merge"
)

// finish ends index and merge (name) alike: their error made the one the
// command returns, --diff's report written, a merge's --remove-parts
// done, and the outcome told: with --json one JSON document on stdout,
// for success and failure alike; otherwise on stderr (for index, with the
// leftovers of interrupted runs it removed and the --ignore codes that
// matched nothing).
func finish(ctx context.Context, cmd *cli.Command, name string, res *stages.Result, pubDir string, err error) error {
	index := name == "index"
	switch {
	case errors.Is(err, publish.ErrPrune):
		tell(cmd).PruneFailed(err)
		err = nil
	case errors.Is(err, stages.ErrShrink):
		err = fmt.Errorf("%s: %w; to accept it, run again with --allow-shrink", name, err)
	case errors.Is(err, merge.ErrMismatch): // a merge's
		err = usageError{fmt.Errorf("%s: %w", name, err)}
	case err != nil && !errors.Is(err, stages.ErrStrict) && !errors.As(err, new(usageError)):
		err = fmt.Errorf("%s: %w", name, targetError(settingsError(err)))
	}
	if err == nil && res != nil && res.Status == stages.StatusPartial {
		err = errPartial
	}
	if res != nil && pubDir != "" && cmd.Bool("diff") {
		tell(cmd).DiffReport(place.WriteDiff(ctx, pubDir, res.Published)) // a warning at worst: the snapshot is published
	}
	if res != nil && !index && cmd.Bool("remove-parts") {
		tell(cmd).PartsRemoved(cmd.String("parts"), place.RemoveParts(ctx, cmd.String("parts"), cmd.Int("shards")))
	}
	if cmd.Bool("json") && !cmd.Bool("plan") {
		if werr := console.WriteJSON(cmd.Root().Writer, newRunSummary(ctx, res, err)); werr != nil {
			return werr
		}
		return err
	}
	if res != nil {
		t := tell(cmd)
		if index {
			t.Cleaned(res.Cleaned)
		}
		t.Quarantined(res.Published) // an --out snapshot that lost its manifest too
		if pubDir != "" {
			t.Latest(res.Published, index)
		}
		t.Summary(res, newRunSummary(ctx, res, err))
		if index {
			noteUnmatchedIgnores(t, cmd.StringSlice("ignore"), res.Report.DiagnosticCodes())
		}
	}
	return err
}
