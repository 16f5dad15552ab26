package main

import (
	"errors"
	"os"

	"github.com/ocean-safety/ingest/publish/place"
)

// work is where a run publishing to a bucket builds its snapshot, from the
// environment: $INGEST_WORK_DIR, else the user's cache folder (see
// place.Work).
func work() place.Work {
	w := place.Work{Dir: os.Getenv("INGEST_WORK_DIR")}
	w.Cache, w.CacheErr = os.UserCacheDir()
	return w
}

// placeError makes a place the command line named and the command cannot
// use a usage error (exit 2); other errors pass.
func placeError(err error) error {
	if errors.Is(err, place.ErrRefused) {
		return usageError{err}
	}
	return err
}
