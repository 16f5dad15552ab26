package artifacts

import (
	"context"

	"github.com/ocean-safety/ingest/schema"
)

// EachThreshold reads the thresholds of the snapshot in dir's chunks and
// passes each to fn, in the rows' order: a reader keeps what it needs
// (ingest thresholds: the proposal, in memory bounded by its values, or
// the list).
func EachThreshold(ctx context.Context, dir string, fn func(schema.Threshold)) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	cf, err := OpenChunksAs(dir, m)
	if err != nil {
		return err
	}
	defer cf.Close()
	return cf.Each(ctx, func(c schema.Chunk) error {
		for _, t := range c.Thresholds {
			fn(t)
		}
		return nil
	})
}
