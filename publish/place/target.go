package place

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// Work says where a run that publishes to a bucket builds its snapshot and
// keeps its state (lock, journal, the downloaded previous snapshot), as the
// command line's environment says: Dir ($INGEST_WORK_DIR) as it is, else a
// folder per publish URL under Cache (the user's cache folder; CacheErr
// when there is none), so a killed nightly run resumes on the same machine.
type Work struct {
	Dir      string
	Cache    string
	CacheErr error
}

// dir is the work folder of the publish prefix at url.
func (w Work) dir(url string) (string, error) {
	if w.Dir != "" {
		return w.Dir, nil
	}
	if w.Cache == "" {
		err := w.CacheErr
		if err == nil {
			err = errors.New("no user cache folder")
		}
		return "", fmt.Errorf("a work folder for %s: %w (set INGEST_WORK_DIR)", redact.URL(url), err)
	}
	sum := sha256.Sum256([]byte(redact.URL(url)))
	return filepath.Join(w.Cache, "ingest", hex.EncodeToString(sum[:6])), nil
}

// Spec is what a command line says of where a run writes.
type Spec struct {
	Out     string // an --out folder, or
	Publish string // a publish folder or a bucket URL
	Keep    int    // snapshots a publish target keeps (at least 1)
	Prev    string // a local snapshot folder to reuse from ("" : the target's own)
	// Shard, unless whole, puts the run's part at Out or Publish
	// /shard-K-of-N, in a place that holds parts only.
	Shard shard.Shard
	Work  Work
}

// Target builds a run's target, once, at the edge: an --out folder, a
// publish folder, or a bucket prefix (opened here; close releases it). A
// shard's part goes under the parts' place, refused (ErrRefused) when that
// place holds anything but parts.
func Target(ctx context.Context, s Spec) (t publish.Target, close func(), err error) {
	if !s.Shard.Whole() {
		for _, p := range []string{s.Out, s.Publish} {
			if p == "" {
				continue
			}
			if err := parse(p).checkParts(); err != nil {
				return nil, func() {}, err
			}
		}
	}
	if s.Publish == "" {
		return publish.OutTarget(s.part(s.Out), s.Prev), func() {}, nil
	}
	return parse(s.PublishPlace()).target(ctx, s.Keep, s.Prev, s.Work)
}

// PublishPlace is where the run publishes: Publish, or a shard's part
// under it; "" for an --out run.
func (s Spec) PublishPlace() string { return s.part(s.Publish) }

// part is where a shard's part goes under the parts' place (a folder or a
// bucket URL): place/shard-K-of-N; the place itself for a whole run.
func (s Spec) part(place string) string {
	if place == "" || s.Shard.Whole() {
		return place
	}
	return Join(place, s.Shard.Name())
}

func (f folder) target(_ context.Context, keep int, prev string, _ Work) (publish.Target, func(), error) {
	return publish.PublishTarget(string(f), keep, prev), func() {}, nil
}

func (p prefix) target(ctx context.Context, keep int, prev string, work Work) (publish.Target, func(), error) {
	store, err := bucket.Open(ctx, string(p))
	if err != nil {
		return nil, func() {}, err
	}
	dir, err := work.dir(string(p))
	if err != nil {
		store.Close()
		return nil, func() {}, err
	}
	return publish.RemoteTarget(store, dir, keep, prev), func() { store.Close() }, nil
}
