package artifacts

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
	// Prev is the snapshot to reuse from when it is not the one the run
	// replaces (--prev); see Previous.
	Prev string
	// State is the folder of the run's own files that outlive a run: the
	// lock that keeps one run at a time, and the journal a killed run
	// resumes from.
	State string
	// Remote is an object store to publish to (see RemoteTarget); the
	// snapshot is built at Out, a local work folder, and then uploaded.
	Remote Remote
	// fetched is the remote's latest snapshot, downloaded by Resolve.
	fetched string
	// latestErr is what Resolve found wrong with the remote's latest (see
	// CheckLatest).
	latestErr error
}

// Remote is a publish prefix in an object store (package bucket).
type Remote interface {
	String() string
	// Acquire takes the prefix's lease for one run (or waits up to wait).
	Acquire(ctx context.Context, wait time.Duration) (release func() error, err error)
	// Clean removes what interrupted uploads left, under the lease.
	Clean(ctx context.Context) ([]string, error)
	// Latest downloads the current snapshot into dir; "" if none.
	Latest(ctx context.Context, dir string) (string, error)
	// Publish uploads the snapshot at dir, checks it, points latest at it
	// and prunes beyond keep.
	Publish(ctx context.Context, dir string, keep int) (*Published, error)
}

// RemoteTarget is the target of a run published to r, built in the local
// work folder (its state: the lock, the journal, the downloaded previous
// snapshot), keeping keep snapshots, reusing from prev ("" for r's latest).
func RemoteTarget(r Remote, work string, keep int, prev string) Target {
	work = filepath.Clean(work)
	return Target{Out: filepath.Join(work, "build"), Keep: keep, Prev: prev, State: filepath.Join(work, "state"), Remote: r}
}

// Resolve fetches what the target needs from elsewhere before a run uses
// it: a remote's latest snapshot, into the work folder. Call it under the
// lock.
func (t Target) Resolve(ctx context.Context) (Target, error) {
	if t.Remote == nil {
		return t, nil
	}
	dir := filepath.Join(filepath.Dir(t.Out), "latest")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return t, err
	}
	latest, err := t.Remote.Latest(ctx, dir)
	if errors.Is(err, ErrLatestBroken) { // reported by the run, and repaired by its publish
		t.latestErr = err
		return t, nil
	}
	if err != nil {
		return t, err
	}
	t.fetched = latest
	return t, nil
}

// OutTarget is the target of a run published at out, reusing from prev
// ("" for the snapshot already at out, if any).
func OutTarget(out, prev string) Target {
	out = filepath.Clean(out)
	return Target{Out: out, Prev: prev, State: filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".ingest")}
}

// PublishTarget is the target of a run published into the publish folder
// dir, keeping keep snapshots, reusing from prev ("" for latest, if any).
func PublishTarget(dir string, keep int, prev string) Target {
	dir = filepath.Clean(dir)
	return Target{Publish: dir, Keep: keep, Prev: prev, State: filepath.Join(dir, stateDir)}
}

// stateDir is a publish folder's own state folder.
const stateDir = ".ingest"

// Journal is where the run checkpoints what model servers returned.
func (t Target) Journal() string { return filepath.Join(t.State, "journal.jsonl") }

// LockPath is the file locked while a run writes the target.
func (t Target) LockPath() string { return filepath.Join(t.State, "lock") }

// Current is the snapshot the run would replace: the one at Out, or the
// one latest points to; "" for none.
func (t Target) Current() string {
	if t.Remote != nil {
		return t.fetched
	}
	if t.Publish != "" {
		if latest, err := Latest(t.Publish); err == nil && hasManifest(latest) {
			return latest
		}
		return ""
	}
	if owned(t.Out) {
		return t.Out
	}
	return ""
}

// Previous is the snapshot the run reuses headers and vectors from: Prev,
// else Current. Read it under the lock: another run may move latest.
func (t Target) Previous() string {
	if t.Prev != "" {
		return t.Prev
	}
	return t.Current()
}

// snapshotFiles are the files a snapshot folder holds.
var snapshotFiles = map[string]bool{ChunksFile: true, ManifestFile: true, ReportFile: true, ThresholdsFile: true, AuditFile: true, DocumentsFile: true}

// hasManifest reports whether dir holds a manifest.json: a snapshot, whole
// (the manifest is written last), though not necessarily sound.
func hasManifest(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ManifestFile))
	return err == nil
}

// owned reports whether dir is a snapshot this tool wrote: its manifest
// says so (Tool), or has the shape only this tool's manifests have (written
// before Tool was); or, its manifest damaged past reading, its
// chunks.parquet carries this tool's schema version. File names alone
// prove nothing: anyone's folder can hold a manifest.json and a
// chunks.parquet.
func owned(dir string) bool {
	m, err := ReadManifest(dir)
	if err == nil {
		return ownManifest(m)
	}
	if !hasManifest(dir) {
		return false
	}
	cf, err := openAnyVersion(filepath.Join(dir, ChunksFile))
	if err != nil {
		return false
	}
	defer cf.Close()
	return cf.SchemaVersion != ""
}

func ownManifest(m Manifest) bool {
	switch {
	case m.SchemaVersion == "":
		return false
	case m.Tool != "":
		return m.Tool == ToolName
	}
	return isSHA256(m.CorpusFingerprint) && isSHA256(m.ConfigHash) && isSHA256(m.Files[ChunksFile].SHA256)
}

func isSHA256(s string) bool { return len(s) == 64 && isHex(s, 64) }

// String names the target for messages.
func (t Target) String() string {
	if t.Remote != nil {
		return t.Remote.String()
	}
	if t.Publish != "" {
		return t.Publish
	}
	return t.Out
}

// Key is the setting the target comes from: "out" or "publish".
func (t Target) Key() string {
	if t.Publish != "" || t.Remote != nil {
		return "publish"
	}
	return "out"
}

// Check refuses, before any work, a target that is not the tool's to
// write: a folder that holds anything but a snapshot (or, for a publish
// folder, anything but snapshots and what publishing puts beside them), a
// file, the corpus itself or a folder inside it or around it. It also
// refuses a keep below one. The error names what is there.
func (t Target) Check(corpus string) error {
	switch {
	case (t.Out == "") == (t.Publish == ""):
		return errors.New("a target is an out folder or a publish folder, not both or neither")
	case t.Publish != "" && t.keep() < 1:
		return &NotOwnedError{Key: "keep", Path: t.Publish, Why: fmt.Sprintf("%d: want at least 1", t.Keep)}
	}
	if corpus != "" {
		if err := t.checkCorpus(corpus); err != nil {
			return err
		}
	}
	if t.Publish != "" {
		return t.checkPublishDir()
	}
	return t.checkOutDir()
}

func (t Target) keep() int {
	if t.Keep == 0 {
		return DefaultKeep
	}
	return t.Keep
}

// NotOwnedError is a target the tool refuses to write: Key is the setting
// that named it ("out", "publish", "keep").
type NotOwnedError struct {
	Key, Path, Why string
}

func (e *NotOwnedError) Error() string { return e.Path + ": " + e.Why }

func (t Target) refuse(why string, a ...any) error {
	return &NotOwnedError{Key: t.Key(), Path: t.String(), Why: fmt.Sprintf(why, a...)}
}

func (t Target) checkOutDir() error {
	info, err := os.Lstat(t.Out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return t.refuse("%v", err)
	}
	if !info.IsDir() {
		return t.refuse("is a file, not a snapshot folder; choose an empty or new folder")
	}
	entries, err := os.ReadDir(t.Out)
	if err != nil {
		return t.refuse("%v", err)
	}
	if len(entries) == 0 {
		return nil
	}
	if !owned(t.Out) {
		if hasManifest(t.Out) {
			return t.refuse("not an ingest snapshot (its %s was not written by ingest); choose an empty or new folder", ManifestFile)
		}
		return t.refuse("not an ingest snapshot (holds %s); choose an empty or new folder", entries[0].Name())
	}
	for _, e := range entries {
		if !snapshotFiles[e.Name()] {
			return t.refuse("holds %s besides a snapshot, which a run would replace; move it, or choose another folder", e.Name())
		}
	}
	return nil
}

// checkPublishDir accepts a publish folder that holds only what publishing
// makes: snapshot folders, latest, the diff reports written beside them,
// and the tool's dot-named state and leftovers.
func (t Target) checkPublishDir() error {
	info, err := os.Lstat(t.Publish)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return t.refuse("%v", err)
	}
	if !info.IsDir() {
		return t.refuse("is a file, not a publish folder; choose an empty or new folder")
	}
	entries, err := os.ReadDir(t.Publish)
	if err != nil {
		return t.refuse("%v", err)
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == LatestLink, name == stateDir, isLeftover(name, ""),
			strings.HasSuffix(name, ".diff.md") || strings.HasSuffix(name, ".diff.json"),
			e.IsDir() && publishedName(name) && hasManifest(filepath.Join(t.Publish, name)),
			e.IsDir() && owned(filepath.Join(t.Publish, name)):
			continue
		}
		return t.refuse("not an ingest publish folder (holds %s); choose an empty or new folder", name)
	}
	return nil
}

// checkCorpus refuses a target that is the corpus, lies inside it (the
// next run would ingest the snapshot's own files) or holds it (a publish
// or replace would delete the sources).
func (t Target) checkCorpus(corpus string) error {
	c, err := realPath(corpus)
	if err != nil {
		return nil // the corpus is checked where it is read
	}
	p, err := realPath(t.String())
	if err != nil {
		return t.refuse("%v", err)
	}
	switch {
	case p == c:
		return t.refuse("is the corpus folder; choose a folder outside it")
	case within(p, c):
		return t.refuse("is inside the corpus %s: the next run would ingest the snapshot; choose a folder outside it", corpus)
	case within(c, p):
		return t.refuse("holds the corpus %s; choose a folder outside it", corpus)
	}
	return nil
}

// realPath resolves symbolic links in p, the part that exists: a target
// that does not exist yet resolves through its nearest existing parent.
func realPath(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// within reports whether path lies strictly inside dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Staging is a snapshot being written: a temporary folder beside its target
// (under a dot name, which readers and Prune ignore), made public by Commit
// only when complete, so a failed or interrupted run leaves the previous
// snapshot untouched.
type Staging struct {
	Dir      string // write the snapshot's files here
	t        Target
	verified bool // Verify found it good: Commit need not read it again
}

// Stage creates the temporary folder of a snapshot for t.
func (t Target) Stage() (*Staging, error) {
	if err := t.Check(""); err != nil {
		return nil, err
	}
	parent, pattern := t.stagingParent()
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

// stagingParent is the folder a staging folder is made in, on the target's
// file system so the final move is a rename, and its name pattern.
func (t Target) stagingParent() (parent, pattern string) {
	if t.Publish != "" {
		return t.Publish, publishPrefix
	}
	return filepath.Dir(t.Out), "." + filepath.Base(t.Out) + tmpInfix
}

// The names of what a run makes and removes itself, so a later run can
// recognise what a crashed one left.
const (
	publishPrefix = ".publish-"
	tmpInfix      = ".tmp-"
	pruneInfix    = ".prune-"
	oldSuffix     = ".old"
)

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
	// Quarantined are published snapshots of the same content that failed
	// verification: the new build was published instead, and they were
	// moved aside (never deleted).
	Quarantined []Quarantined
	// Local and PreviousLocal are folders holding the snapshot and the
	// previous one on this machine ("" when none does): a bucket's build
	// and the copy its run reused from, so nothing is downloaded again.
	Local, PreviousLocal string
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
		if s.t.Remote != nil {
			if err := s.verify(ctx, s.t.Out); err != nil {
				return nil, err
			}
			pub, err := s.t.Remote.Publish(ctx, s.t.Out, s.t.keep())
			if pub != nil {
				pub.Local = s.t.Out
				if s.t.fetched != "" && strings.Contains(pub.Previous, "/"+filepath.Base(s.t.fetched)) {
					pub.PreviousLocal = s.t.fetched
				}
			}
			return pub, err
		}
		return &Published{Name: filepath.Base(s.t.Out), Path: s.t.Out}, nil
	}
	return s.publish(ctx)
}

func (s *Staging) publish(ctx context.Context) (*Published, error) {
	dir := s.t.Publish
	pub := &Published{Previous: s.t.Current()}
	var err error
	if pub.Name, err = s.checkBuild(ctx); err != nil {
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	pub.Path = filepath.Join(dir, pub.Name)
	if err := syncDir(s.Dir); err != nil { // its entries durable before it is renamed in
		_ = s.Abort()
		return nil, fmt.Errorf("publish %s: %w", dir, err)
	}
	var broken []candidate
	if pub.Name, pub.Reused, broken, pub.Quarantined, err = moveIn(ctx, s.Dir, pub.Path, s.t.State); err != nil {
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
		q, err := quarantine(dir, s.t.State, b.name, b.problems)
		if err != nil {
			return pub, fmt.Errorf("%w: %w", ErrPrune, err) // published all the same; the next run tries again
		}
		pub.Quarantined = append(pub.Quarantined, q)
	}
	if slices.ContainsFunc(pub.Quarantined, func(q Quarantined) bool { return q.Name == filepath.Base(pub.Previous) }) {
		pub.Previous = "" // nothing to diff against or keep: it was broken
	}
	if pub.Pruned, err = Prune(dir, s.t.keep()); err != nil {
		return pub, fmt.Errorf("%w: %w", ErrPrune, err)
	}
	if pub.Previous != "" && !slices.Contains(pub.Pruned, filepath.Base(pub.Previous)) {
		pub.PreviousLocal = pub.Previous
	}
	return pub, nil
}
