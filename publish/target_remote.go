package publish

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Remote is a publish prefix in an object store (package publish/bucket).
type Remote interface {
	String() string
	// Acquire takes the prefix's lease for one run (or waits up to wait).
	Acquire(ctx context.Context, wait time.Duration) (release func() error, err error)
	// Clean removes what interrupted uploads left, under the lease, and
	// moves aside (never deletes) the snapshots that lost their manifest.
	Clean(ctx context.Context) (removed []string, aside []Quarantined, err error)
	// Latest downloads the current snapshot into dir; "" if none.
	Latest(ctx context.Context, dir string) (string, error)
	// Publish uploads the snapshot at dir, checks it, points latest at it
	// and prunes beyond keep.
	Publish(ctx context.Context, dir string, keep int) (*Published, error)
	// ReadJournal, AppendJournal and RemoveJournal keep the run's journal
	// in the store, piece by piece, so a run resumes on another machine
	// (reuse.Mirror).
	ReadJournal(ctx context.Context, w io.Writer) (int, error)
	AppendJournal(ctx context.Context, n int, piece []byte) error
	RemoveJournal(ctx context.Context) error
}

// remoteTarget is a publish prefix in an object store: the snapshot is
// built in a local work folder (work/build), the state kept beside it
// (work/state), the store's latest downloaded there (work/latest) when the
// run takes its lock, and the build uploaded by Commit.
type remoteTarget struct {
	r          Remote
	work, prev string
	keep       int
	// fetched is the store's latest snapshot, downloaded by Acquire.
	fetched string
	// latestErr is what Acquire found wrong with the store's latest (see
	// CheckLatest).
	latestErr error
}

// RemoteTarget is the target of a run published to r, built in the local
// work folder (its state: the lock, the journal, the downloaded previous
// snapshot), keeping keep snapshots (at least 1), reusing from prev (""
// for r's latest).
func RemoteTarget(r Remote, work string, keep int, prev string) Target {
	return &remoteTarget{r: r, work: filepath.Clean(work), keep: keep, prev: prev}
}

var _ Target = (*remoteTarget)(nil)

func (t *remoteTarget) build() string { return filepath.Join(t.work, "build") }

func (t *remoteTarget) String() string { return t.r.String() }

func (t *remoteTarget) Key() string { return "publish" }

func (t *remoteTarget) State() string { return filepath.Join(t.work, "state") }

func (t *remoteTarget) Journal() string { return filepath.Join(t.State(), journalFile) }

func (t *remoteTarget) Current() string { return t.fetched }

func (t *remoteTarget) Previous() string { return previousOr(t.prev, t) }

// Fallbacks are the snapshots earlier runs downloaded into the work folder
// (fetchLatest keeps each under its name): what this machine holds without
// asking the store.
func (t *remoteTarget) Fallbacks() []string {
	return fallbacks(t.prev, filepath.Join(t.work, LatestLink), t.Previous())
}

func (t *remoteTarget) CheckLatest() error { return t.latestErr }

// Check refuses a keep below one, a work folder that holds the corpus or
// lies in it, and a build folder that holds anything but a snapshot; the store's own prefix
// is the store's to check, under its lease.
func (t *remoteTarget) Check(corpus string) error {
	if err := checkKeep(t.keep, t.String()); err != nil {
		return err
	}
	if err := checkCorpus(t, t.work, corpus); err != nil {
		return err
	}
	return checkOutDir(t, t.build())
}

// Acquire takes the work folder's lock, then the prefix's lease, removes
// what interrupted runs left in both, and downloads the store's latest
// snapshot into the work folder: once a run, under the lock.
func (t *remoteTarget) Acquire(ctx context.Context, wait time.Duration) (*Lock, error) {
	l, err := lockState(ctx, t, wait, t.work, "build")
	if err != nil {
		return nil, err
	}
	if l.remote, err = t.r.Acquire(ctx, wait); err != nil {
		_ = l.Release()
		return nil, err
	}
	cleaned, aside, err := t.r.Clean(ctx)
	l.Cleaned, l.Quarantined = append(l.Cleaned, cleaned...), append(l.Quarantined, aside...)
	if err == nil {
		err = t.fetchLatest(ctx)
	}
	if err != nil {
		_ = l.Release()
		return nil, err
	}
	return l, nil
}

// fetchLatest downloads the store's latest snapshot into the work folder.
// A latest that names no good snapshot is kept as CheckLatest's answer: the
// run reports it, and its publish repairs it.
func (t *remoteTarget) fetchLatest(ctx context.Context) error {
	t.fetched, t.latestErr = "", nil
	dir := filepath.Join(t.work, LatestLink)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	latest, err := t.r.Latest(ctx, dir)
	switch {
	case errors.Is(err, ErrLatestBroken):
		t.latestErr = err
	case err != nil:
		return err
	default:
		t.fetched = latest
	}
	return nil
}

func (t *remoteTarget) Stage() (*Staging, error) {
	return stage(t, t.work, ".build"+tmpInfix)
}

// commit puts the build in the work folder, verifies it and uploads it.
func (t *remoteTarget) commit(ctx context.Context, s *Staging) (*Published, error) {
	build := t.build()
	if err := commitOut(s.Dir, build); err != nil {
		return nil, err
	}
	if err := s.verify(ctx, build); err != nil {
		return nil, err
	}
	pub, err := t.r.Publish(ctx, build, t.keep)
	if pub != nil {
		pub.Local = build
		if t.fetched != "" && strings.Contains(pub.Previous, "/"+filepath.Base(t.fetched)) {
			pub.PreviousLocal = t.fetched
		}
	}
	return pub, err
}

// The journal's mirror is the store's: a target that keeps one is a
// reuse.Mirror.

func (t *remoteTarget) ReadJournal(ctx context.Context, w io.Writer) (int, error) {
	return t.r.ReadJournal(ctx, w)
}

func (t *remoteTarget) AppendJournal(ctx context.Context, n int, piece []byte) error {
	return t.r.AppendJournal(ctx, n, piece)
}

func (t *remoteTarget) RemoveJournal(ctx context.Context) error { return t.r.RemoveJournal(ctx) }
