package stages

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/text/lexical"
)

// How a run meets its target and its models before any work: the target
// checked once and claimed (locked, a bucket's latest fetched once under
// the lock), then the models opened against the snapshot the run reuses
// from, whose vector width they must keep.

// ModelOpener opens a run's header writer and embedder (and runs their
// start-up checks) once the run holds its target. prev is the manifest of
// the snapshot the run reuses from (nil: none): with several model servers,
// the digest a run keeps is that snapshot's.
type ModelOpener func(ctx context.Context, prev *artifacts.Manifest) (models.HeaderWriter, models.Embedder, error)

// openModels fills opt's header writer and embedder: from opt.OpenModels
// when set, given the manifest of target's previous snapshot, else as they
// are, nil standing for the offline defaults (the extractive writer, the
// built-in embedder). An embedder whose width is
// not the previous snapshot's is refused: one vector index cannot mix
// widths.
func openModels(ctx context.Context, cfg settings.Config, target publish.Target, opt Options) (Options, error) {
	prev := previousManifest(target)
	if opt.OpenModels != nil {
		h, e, err := opt.OpenModels(ctx, prev)
		if err != nil {
			return opt, err
		}
		opt.Headers, opt.Embedder, opt.OpenModels = h, e, nil
	}
	if opt.Headers == nil {
		opt.Headers = extractive.New(cfg.Header.MaxChars)
	}
	if opt.Embedder == nil {
		opt.Embedder = lexical.NewBuiltin(cfg.Embed.Dims)
	}
	if prev == nil || prev.Embedder.Dims == 0 {
		return opt, nil
	}
	if e, want := opt.Embedder, prev.Embedder.Dims; e.Dims() != want {
		return opt, schema.Setting("embedder", "%s gives %d dimensions, the previous snapshot has %d (one index cannot mix widths): pick a %d-dimension model, or build a new snapshot from scratch",
			e.Name(), e.Dims(), want, want)
	}
	return opt, nil
}

// previousManifest is the manifest of the snapshot a run into target reuses
// from, nil when there is none or it cannot be read (the run reports a
// previous snapshot it cannot trust when it opens it).
func previousManifest(target publish.Target) *artifacts.Manifest {
	dir := target.Previous()
	if dir == "" {
		return nil
	}
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil
	}
	return &m
}

// Claim checks a run may write target (not the corpus's place, nor a place
// it does not own, nor one holding the other kind of snapshot: a part where
// a whole one is, or the reverse), takes its lock, which resolves it (a
// bucket's previous snapshot fetched): what a run and a merge do before any
// work. The kind is checked before the lock, so a refused run writes
// nothing, not even the lock's holder file, and again under it, against a
// bucket's latest and whatever another run published in between.
func Claim(ctx context.Context, target publish.Target, corpusDir string, part bool, wait time.Duration) (*publish.Lock, error) {
	if err := target.Check(corpusDir); err != nil {
		return nil, err
	}
	if err := checkTargetKind(target, part); err != nil {
		return nil, err
	}
	lock, err := target.Acquire(ctx, wait)
	if err != nil {
		return nil, err
	}
	if err := checkTargetKind(target, part); err != nil {
		lock.Release()
		return nil, err
	}
	return lock, nil
}

// checkTargetKind refuses to write a part where a whole snapshot is
// published (consumers would read one shard's documents as the corpus), and
// a whole snapshot where parts are kept.
func checkTargetKind(target publish.Target, part bool) error {
	cur := target.Current()
	if cur == "" {
		return nil
	}
	m, err := artifacts.ReadManifest(cur)
	switch {
	case err != nil:
		return nil // not ours to judge: the publish guards decide
	case part && m.Shard == nil:
		return schema.Setting("shard", "%s holds a whole snapshot; publish parts to a place of their own and merge them into this one", target)
	case !part && m.Shard != nil:
		return schema.Setting("shard", "%s holds a part (shard %d of %d); give a whole run or a merge a place of its own", target, m.Shard.Index, m.Shard.Count)
	}
	return nil
}
