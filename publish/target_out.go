package publish

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
)

// outTarget is an --out folder: one snapshot, replaced atomically when a
// run succeeds; its state beside it in .<out>.ingest.
type outTarget struct {
	out, prev string
}

// OutTarget is the target of a run published at out, reusing from prev
// ("" for the snapshot already at out, if any).
func OutTarget(out, prev string) Target {
	if out != "" {
		out = filepath.Clean(out)
	}
	return &outTarget{out: out, prev: prev}
}

var _ Target = (*outTarget)(nil)

func (t *outTarget) String() string { return t.out }

func (t *outTarget) Key() string { return "out" }

func (t *outTarget) State() string {
	return filepath.Join(filepath.Dir(t.out), "."+filepath.Base(t.out)+".ingest")
}

func (t *outTarget) Journal() string { return filepath.Join(t.State(), journalFile) }

func (t *outTarget) Current() string {
	if owned(t.out) {
		return t.out
	}
	return ""
}

func (t *outTarget) Previous() string { return previousOr(t.prev, t) }

// CheckLatest: an --out folder has no latest.
func (t *outTarget) CheckLatest() error { return nil }

func (t *outTarget) Check(corpus string) error {
	if t.out == "" {
		return errors.New("an --out target needs a folder")
	}
	if err := checkCorpus(t, t.out, corpus); err != nil {
		return err
	}
	return checkOutDir(t, t.out)
}

// Acquire also moves aside a snapshot at out that lost its manifest: the
// run then writes out anew.
func (t *outTarget) Acquire(ctx context.Context, wait time.Duration) (*Lock, error) {
	l, err := lockState(ctx, t, wait, filepath.Dir(t.out), filepath.Base(t.out))
	if err != nil || !headless(t.out, t.State()) {
		return l, err
	}
	q, err := quarantine(filepath.Dir(t.out), t.State(), filepath.Base(t.out), []string{ManifestMissing})
	if err != nil {
		_ = l.Release()
		return nil, err
	}
	l.Quarantined = append(l.Quarantined, q)
	return l, nil
}

func (t *outTarget) Stage() (*Staging, error) {
	return stage(t, filepath.Dir(t.out), "."+filepath.Base(t.out)+tmpInfix)
}

func (t *outTarget) commit(_ context.Context, s *Staging) (*Published, error) {
	if err := commitOut(s.Dir, t.out); err != nil {
		return nil, err
	}
	return &Published{Name: filepath.Base(t.out), Path: t.out}, nil
}

// Fallbacks: an --out folder holds one snapshot.
func (t *outTarget) Fallbacks() []string { return nil }

// fallbacks are the snapshots of dir other than previous, newest first;
// none when the run was given prev.
func fallbacks(prev, dir, previous string) []string {
	if prev != "" {
		return nil
	}
	snaps, err := listSnapshots(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, s := range snaps {
		if p := filepath.Join(dir, s.name); p != previous {
			out = append(out, p)
		}
	}
	return out
}

// previousOr is prev, else t's current snapshot.
func previousOr(prev string, t Target) string {
	if prev != "" {
		return prev
	}
	return t.Current()
}

// checkOutDir accepts at out nothing, an empty folder, or a snapshot this
// tool wrote and nothing beside its files: what a run replaces.
func checkOutDir(t Target, out string) error {
	info, err := os.Lstat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return refuse(t, "%v", err)
	}
	if !info.IsDir() {
		return refuse(t, "is a file, not a snapshot folder; choose an empty or new folder")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return refuse(t, "%v", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if !owned(out) && !headless(out, t.State()) { // headless: moved aside by Acquire
		if hasManifest(out) {
			return refuse(t, "not an ingest snapshot (its %s was not written by ingest); choose an empty or new folder", artifacts.ManifestFile)
		}
		return refuse(t, "not an ingest snapshot (holds %s); choose an empty or new folder", entries[0].Name())
	}
	for _, e := range entries {
		if !snapshotFiles[e.Name()] {
			return refuse(t, "holds %s besides a snapshot, which a run would replace; move it, or choose another folder", e.Name())
		}
	}
	return nil
}
