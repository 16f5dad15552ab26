package place

import (
	"context"
	"errors"

	"github.com/ocean-safety/ingest/publish"
)

// Previous makes the snapshot a run reuses from (--prev) a local folder,
// as Snapshot does (a bucket's snapshot downloaded). A bucket's latest that
// nothing was published to yet, or that names no good snapshot, is no
// error: there is no folder (""), and none says why, for the command to
// say; the run reuses from no more than a first run does.
func Previous(ctx context.Context, arg string) (dir string, cleanup func(), none, err error) {
	dir, cleanup, err = Snapshot(ctx, arg)
	switch {
	case errors.Is(err, ErrNothingPublished):
		// The first night of a deployment that names where it will
		// publish: nothing to reuse yet, as on any first run.
		return "", cleanup, err, nil
	case errors.Is(err, publish.ErrLatestBroken):
		// As a previous snapshot that fails its checks: reported, not
		// reused, and no reason to stop a run that can repair it.
		return "", cleanup, err, nil
	}
	return dir, cleanup, nil, err
}
