package place

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// Parts are the places of a sharded run's n parts under root:
// root/shard-K-of-N for every K from 0.
func Parts(root string, n int) ([]string, error) {
	var out []string
	for k := range n {
		sh := shard.Shard{Index: k, Count: n}
		if err := sh.Validate(); err != nil {
			return nil, err
		}
		out = append(out, Join(root, sh.Name()))
	}
	return out, nil
}

// RemoveParts removes the parts of a merged run: each root/shard-K-of-N (a
// folder with what its run kept beside it, or a bucket prefix), then root
// itself when that leaves it empty. Only what the shards wrote goes: a
// folder of parts holds nothing else (Target refuses one that does), and a
// bucket's parts prefix is deleted one shard-K-of-N prefix at a time.
func RemoveParts(ctx context.Context, root string, n int) error {
	return parse(root).removeParts(ctx, n)
}

// partEntry is what a parts folder holds: shard-K-of-N folders, their
// staging folders and their state.
var partEntry = regexp.MustCompile(`^\.?shard-\d+-of-\d+(?:$|[.-])`)

// checkParts refuses a parts' folder that is itself a snapshot or a publish
// folder (the parts would be written inside what consumers read), or that
// holds anything but parts.
func (f folder) checkParts() error {
	place := string(f)
	for _, name := range []string{artifacts.ManifestFile, publish.LatestLink} {
		if _, err := os.Lstat(filepath.Join(place, name)); err == nil {
			return refuse("%s holds a snapshot (%s): with --shard, --out and --publish name the folder parts go under (as %s/shard-K-of-N); give one of its own", place, name, place)
		}
	}
	// Parts go only where parts are: a new or empty folder, or one holding
	// shard-K-of-N folders and what their runs keep beside them.
	entries, err := os.ReadDir(place)
	if err != nil {
		return nil // absent (made on write), or refused with its own error later
	}
	for _, e := range entries {
		if !partEntry.MatchString(e.Name()) {
			return refuse("%s holds %s, not only parts: with --shard, --out and --publish name a folder for the parts alone (as %s/shard-K-of-N)", place, e.Name(), place)
		}
	}
	return nil
}

// checkParts: a bucket prefix's parts' own prefixes are checked like any
// publish target, under their lease.
func (p prefix) checkParts() error { return nil }

func (f folder) removeParts(_ context.Context, n int) error {
	root := string(f)
	var errs []error
	for k := range n {
		name := shard.Shard{Index: k, Count: n}.Name()
		errs = append(errs, os.RemoveAll(f.join(name)))
		// The state a part's run kept beside an --out part (.shard-K-of-N.ingest).
		errs = append(errs, os.RemoveAll(filepath.Join(root, "."+name+".ingest")))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if entries, err := os.ReadDir(root); err == nil && len(entries) == 0 {
		if err := os.Remove(root); err != nil {
			return fmt.Errorf("remove %s: %w", root, err)
		}
	}
	return nil
}

func (p prefix) removeParts(ctx context.Context, n int) error {
	var errs []error
	for k := range n {
		store, err := bucket.Open(ctx, p.join(shard.Shard{Index: k, Count: n}.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		_, err = store.RemoveAll(ctx)
		store.Close()
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// PartDirs makes each of args a part's local folder (Part); cleanup
// removes what was downloaded. An argument that is no part is an error
// naming it, after the others are cleaned up.
func PartDirs(ctx context.Context, args []string) (dirs []string, cleanup func(), err error) {
	var cleanups []func()
	cleanup = func() {
		for i := len(cleanups) - 1; i >= 0; i-- {
			cleanups[i]()
		}
	}
	for _, a := range args {
		dir, c, err := Part(ctx, a)
		if err != nil {
			cleanup()
			return nil, func() {}, fmt.Errorf("part %s: %w", a, err)
		}
		cleanups = append(cleanups, c)
		dirs = append(dirs, dir)
	}
	return dirs, cleanup, nil
}
