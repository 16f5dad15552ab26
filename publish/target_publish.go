package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// publishTarget is a publish folder: snapshots side by side under their
// content names, a latest link to the current one, the last keep kept;
// its state in DIR/.ingest.
type publishTarget struct {
	dir, prev string
	keep      int
}

// PublishTarget is the target of a run published into the publish folder
// dir, keeping keep snapshots (at least 1: Check refuses fewer), reusing
// from prev ("" for latest, if any).
func PublishTarget(dir string, keep int, prev string) Target {
	if dir != "" {
		dir = filepath.Clean(dir)
	}
	return &publishTarget{dir: dir, keep: keep, prev: prev}
}

var _ Target = (*publishTarget)(nil)

func (t *publishTarget) String() string { return t.dir }

func (t *publishTarget) Key() string { return "publish" }

func (t *publishTarget) State() string { return filepath.Join(t.dir, stateDir) }

func (t *publishTarget) Journal() string { return filepath.Join(t.State(), journalFile) }

func (t *publishTarget) Current() string {
	if latest, err := Latest(t.dir); err == nil && hasManifest(latest) {
		return latest
	}
	return ""
}

func (t *publishTarget) Previous() string { return previousOr(t.prev, t) }

func (t *publishTarget) Fallbacks() []string { return fallbacks(t.prev, t.dir, t.Previous()) }

func (t *publishTarget) CheckLatest() error {
	link := filepath.Join(t.dir, LatestLink)
	target, err := os.Readlink(link)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %s: %w", ErrLatestBroken, link, err)
	}
	if err := checkSnapshotName(target); err != nil {
		return fmt.Errorf("%w: %s points to %q, not a snapshot of this folder", ErrLatestBroken, link, target)
	}
	if !hasManifest(filepath.Join(t.dir, target)) {
		return fmt.Errorf("%w: %s names %s, which is not there", ErrLatestBroken, link, target)
	}
	return nil
}

func (t *publishTarget) Check(corpus string) error {
	if err := t.checkKeep(); err != nil {
		return err
	}
	if err := checkCorpus(t, t.dir, corpus); err != nil {
		return err
	}
	return t.checkDir()
}

// checkKeep refuses a publish target with no folder, or a keep below one.
func (t *publishTarget) checkKeep() error {
	if t.dir == "" {
		return errors.New("a --publish target needs a folder")
	}
	return checkKeep(t.keep, t.dir)
}

// checkKeep refuses a keep below one: a publish keeps latest at least. A 0
// is a setting like any other, not one left out.
func checkKeep(keep int, place string) error {
	if keep < 1 {
		return &NotOwnedError{Key: "keep", Path: place, Why: fmt.Sprintf("%d: want at least 1", keep)}
	}
	return nil
}

// checkDir accepts a publish folder that holds only what publishing makes:
// snapshot folders, latest, the diff reports written beside them, and the
// tool's dot-named state and leftovers.
func (t *publishTarget) checkDir() error {
	info, err := os.Lstat(t.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return refuse(t, "%v", err)
	}
	if !info.IsDir() {
		return refuse(t, "is a file, not a publish folder; choose an empty or new folder")
	}
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return refuse(t, "%v", err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == LatestLink, name == stateDir, isLeftover(name, ""),
			strings.HasSuffix(name, ".diff.md") || strings.HasSuffix(name, ".diff.json"),
			e.IsDir() && publishedName(name) && hasManifest(filepath.Join(t.dir, name)),
			e.IsDir() && owned(filepath.Join(t.dir, name)),
			e.IsDir() && publishedName(name) && headless(filepath.Join(t.dir, name), t.State()): // moved aside by Acquire
			continue
		}
		return refuse(t, "not an ingest publish folder (holds %s); choose an empty or new folder", name)
	}
	return nil
}

// Acquire also moves aside the snapshots that lost their manifest: a
// latest naming one is then broken, and the run publishes a new one.
func (t *publishTarget) Acquire(ctx context.Context, wait time.Duration) (*Lock, error) {
	l, err := lockState(ctx, t, wait, t.dir, "")
	if err != nil {
		return nil, err
	}
	moved, err := moveHeadless(t.dir, t.State())
	l.Quarantined = append(l.Quarantined, moved...)
	if err != nil {
		_ = l.Release()
		return nil, err
	}
	return l, nil
}

// Stage refuses a keep below one before any build: the publish would
// fail after it.
func (t *publishTarget) Stage() (*Staging, error) {
	if err := t.checkKeep(); err != nil {
		return nil, err
	}
	return stage(t, t.dir, publishPrefix)
}

// commit verifies the build, renames it to its content name (or finds that
// content published already), points latest at it, moves aside published
// copies of the same content that fail verification, and prunes.
func (t *publishTarget) commit(ctx context.Context, s *Staging) (*Published, error) {
	dir := t.dir
	pub := &Published{Previous: t.Current()}
	var err error
	if pub.Name, err = s.checkBuild(ctx); err != nil {
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	pub.Path = filepath.Join(dir, pub.Name)
	if err := SyncDir(s.Dir); err != nil { // its entries durable before it is renamed in
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	var broken []candidate
	if pub.Name, pub.Reused, broken, pub.Quarantined, err = moveIn(ctx, s.Dir, pub.Path, t.State()); err != nil {
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	pub.Path = filepath.Join(dir, pub.Name)
	if pub.Reused {
		_ = s.Abort()
	}
	if err := PromoteLatest(dir, pub.Name); err != nil {
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	pub.Local = pub.Path
	for _, b := range broken { // latest names a good one now: the broken go aside
		q, err := quarantine(dir, t.State(), b.name, b.problems)
		if err != nil {
			return pub, fmt.Errorf("%w: %w", ErrPrune, err) // published all the same; the next run tries again
		}
		pub.Quarantined = append(pub.Quarantined, q)
	}
	if slices.ContainsFunc(pub.Quarantined, func(q Quarantined) bool { return q.Name == filepath.Base(pub.Previous) }) {
		pub.Previous = "" // nothing to diff against or keep: it was broken
	}
	if pub.Pruned, err = Prune(dir, t.keep); err != nil {
		return pub, fmt.Errorf("%w: %w", ErrPrune, err)
	}
	if pub.Previous != "" && !slices.Contains(pub.Pruned, filepath.Base(pub.Previous)) {
		pub.PreviousLocal = pub.Previous
	}
	return pub, nil
}
