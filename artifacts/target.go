package artifacts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Target is where a run reads and writes: decided once, at the edge, from
// --out or --publish (and --prev), and handed down. Nothing else computes a
// path of a run.
type Target struct {
	// Out is the snapshot folder of an --out run, replaced atomically when
	// the run succeeds; "" when publishing.
	Out string
	// Publish is the publish folder of a --publish run: snapshots side by
	// side and a latest link; "" with Out.
	Publish string
	// Keep is how many snapshots a publish folder keeps (0: DefaultKeep).
	Keep int
	// Previous is the snapshot the run reuses headers and vectors from:
	// --prev, else the snapshot at Out, else Publish's latest; "" for none.
	Previous string
	// Journal is where the run checkpoints what models returned, at a path
	// that outlives a failed run so the next one resumes from it.
	Journal string
	// Lock is the file that keeps one run at a time on this target.
	Lock string
}

// OutTarget is the target of a run published at out, reusing from prev
// ("" for the snapshot already at out, if any).
func OutTarget(out, prev string) Target {
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	t := Target{Out: out, Previous: prev,
		Journal: filepath.Join(parent, "."+base+".journal.jsonl"),
		Lock:    filepath.Join(parent, "."+base+".lock")}
	if t.Previous == "" && isSnapshot(out) {
		t.Previous = out
	}
	return t
}

// PublishTarget is the target of a run published into the publish folder
// dir, keeping keep snapshots, reusing from prev ("" for latest, if any).
func PublishTarget(dir string, keep int, prev string) Target {
	dir = filepath.Clean(dir)
	t := Target{Publish: dir, Keep: keep, Previous: prev,
		Journal: filepath.Join(dir, ".journal.jsonl"),
		Lock:    filepath.Join(dir, ".lock")}
	if t.Previous == "" {
		if latest, err := Latest(dir); err == nil && isSnapshot(latest) {
			t.Previous = latest
		}
	}
	return t
}

func isSnapshot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ManifestFile))
	return err == nil
}

// String names the target for messages.
func (t Target) String() string {
	if t.Publish != "" {
		return t.Publish
	}
	return t.Out
}

// Check refuses a target that cannot be written before any work: a keep
// below one, or neither or both of Out and Publish.
func (t Target) Check() error {
	switch {
	case (t.Out == "") == (t.Publish == ""):
		return errors.New("a target is an out folder or a publish folder, not both or neither")
	case t.Publish != "" && t.keep() < 1:
		return fmt.Errorf("publish %s: keep %d: want at least 1", t.Publish, t.Keep)
	}
	return nil
}

func (t Target) keep() int {
	if t.Keep == 0 {
		return DefaultKeep
	}
	return t.Keep
}

// Staging is a snapshot being written: a temporary folder beside its target
// (under a dot name, which readers and Prune ignore), made public by Commit
// only when complete, so a failed or interrupted run leaves the previous
// snapshot untouched.
type Staging struct {
	Dir string // write the snapshot's files here
	t   Target
}

// Stage creates the temporary folder of a snapshot for t.
func (t Target) Stage() (*Staging, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	parent, pattern := filepath.Dir(t.Out), "."+filepath.Base(t.Out)+".tmp-"
	if t.Publish != "" {
		// Inside the publish folder, so the final move is a rename on one
		// file system.
		parent, pattern = t.Publish, ".publish-"
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("stage %s: %w", t, err)
	}
	dir, err := os.MkdirTemp(parent, pattern)
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", t, err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // MkdirTemp makes it private; consumers read it
		return nil, fmt.Errorf("stage %s: %w", t, err)
	}
	return &Staging{Dir: dir, t: t}, nil
}

// Path is the staged path of a snapshot file.
func (s *Staging) Path(name string) string { return filepath.Join(s.Dir, name) }

// Abort removes the staged folder.
func (s *Staging) Abort() error { return os.RemoveAll(s.Dir) }

// Published is where a committed snapshot went.
type Published struct {
	Name     string   // the snapshot's folder name (SnapshotName of its manifest when published)
	Path     string   // where it is now: Out, or Publish/Name where latest points
	Previous string   // where latest pointed before ("" for a first publish or an --out run)
	Reused   bool     // the same snapshot was already published: the new build was dropped
	Pruned   []string // folder names removed to keep Keep
}

// Commit makes the staged snapshot public. An --out target gets it by an
// atomic exchange of folders. A publish target first verifies it, then
// renames it to its content name, points latest at it and prunes beyond
// Keep; a failed verification leaves latest and every published folder
// untouched. If only pruning fails the snapshot is published and the error
// wraps ErrPrune.
func (s *Staging) Commit(ctx context.Context) (*Published, error) {
	if s.t.Publish == "" {
		if err := commitOut(s.Dir, s.t.Out); err != nil {
			return nil, err
		}
		return &Published{Name: filepath.Base(s.t.Out), Path: s.t.Out}, nil
	}
	return s.publish(ctx)
}

func (s *Staging) publish(ctx context.Context) (*Published, error) {
	dir := s.t.Publish
	pub := &Published{}
	if prev, err := Latest(dir); err == nil && isSnapshot(prev) {
		pub.Previous = prev
	}
	var err error
	if pub.Name, err = checkBuild(ctx, s.Dir); err != nil {
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	pub.Path = filepath.Join(dir, pub.Name)
	if pub.Reused, err = moveIn(s.Dir, pub.Path); err != nil {
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	if pub.Reused {
		_ = s.Abort()
	}
	if err := PromoteLatest(dir, pub.Name); err != nil {
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	if pub.Pruned, err = Prune(dir, s.t.keep()); err != nil {
		return pub, fmt.Errorf("%w: %w", ErrPrune, err)
	}
	return pub, nil
}
