package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ocean-safety/ingest/bucket"
	"github.com/ocean-safety/ingest/corpus"
)

// removeParts removes the parts of a merged run: each root/shard-K-of-N
// (a folder with what its run kept beside it, or a bucket prefix), then
// root itself when that leaves it empty. Only what the shards wrote goes:
// a folder of parts holds nothing else (checkPartsPlace), and a bucket's
// parts prefix is deleted one shard-K-of-N prefix at a time.
func removeParts(ctx context.Context, root string, n int) error {
	var errs []error
	for k := range n {
		name := corpus.Shard{Index: k, Count: n}.Name()
		place := joinPlace(root, name)
		if bucket.IsURL(root) {
			store, err := bucket.Open(ctx, place)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			_, err = store.RemoveAll(ctx)
			store.Close()
			errs = append(errs, err)
			continue
		}
		errs = append(errs, os.RemoveAll(place))
		// The state a part's run kept beside an --out part (.shard-K-of-N.ingest).
		errs = append(errs, os.RemoveAll(filepath.Join(root, "."+name+".ingest")))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if !bucket.IsURL(root) {
		if entries, err := os.ReadDir(root); err == nil && len(entries) == 0 {
			if err := os.Remove(root); err != nil {
				return fmt.Errorf("remove %s: %w", root, err)
			}
		}
	}
	return nil
}
