package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/stages/reuse"
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

// stampsFile is where the stamps of the corpus at root are kept on this
// machine (stages.Options.Stamps): under $INGEST_CACHE_DIR, else the
// user's cache folder; "" (none kept) when there is neither, or when
// $INGEST_CACHE_DIR is "off".
func stampsFile(root string) string {
	dir := os.Getenv("INGEST_CACHE_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(cache, "ingest")
	}
	if dir == "off" {
		return ""
	}
	return reuse.StampsPath(dir, root)
}
