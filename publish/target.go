package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
)

// Target is where a run reads and writes: decided once, at the edge, from
// --out or --publish (and --prev), and handed down. Nothing else computes a
// path of a run. There are three: an --out folder (OutTarget), a publish
// folder (PublishTarget) and a bucket prefix built in a local work folder
// (RemoteTarget); each answers for itself, so no caller asks which it is.
//
// A run calls Check before any work, then Acquire, which takes the lock and
// fetches what the target keeps elsewhere (a bucket's latest, once), then
// Current, Previous and Journal under the lock, then Stage and Commit.
type Target interface {
	// String names the target for messages.
	String() string
	// Key is the setting the target comes from: "out" or "publish".
	Key() string
	// Check refuses, before any work, a target that is not the tool's to
	// write: a folder that holds anything but a snapshot (or, for a
	// publish folder, anything but snapshots and what publishing puts
	// beside them), a file, the corpus itself or a folder inside it or
	// around it (corpus "": not checked). The error names what is there.
	Check(corpus string) error
	// Acquire takes the target's lock for one run, trying for up to wait
	// (0: once), removes what crashed runs left beside the target, and
	// resolves what the target keeps elsewhere: a bucket's lease is taken
	// and its latest snapshot downloaded, once, under the lock. A lock
	// another run holds is a *LockedError.
	Acquire(ctx context.Context, wait time.Duration) (*Lock, error)
	// Current is the snapshot the run would replace: the one at --out, or
	// the one latest points to; "" for none. Read it under the lock.
	Current() string
	// Previous is the snapshot the run reuses headers and vectors from:
	// --prev, else Current.
	Previous() string
	// Fallbacks are the other snapshots of the target on this machine,
	// newest first, that a run reuses from when Previous is none or cannot
	// be trusted (a damaged latest): a heal pays only for what no intact
	// snapshot holds. None given --prev: the run reuses what it was told.
	Fallbacks() []string
	// CheckLatest says what is wrong with the target's latest: nil when it
	// names a snapshot that is there, when nothing was published yet, or
	// for a target without one; an error wrapping ErrLatestBroken
	// otherwise. (Whether the snapshot verifies is the reader's check.)
	CheckLatest() error
	// State is the folder of the run's own files that outlive a run: the
	// lock that keeps one run at a time, and the journal a killed run
	// resumes from.
	State() string
	// Journal is where the run checkpoints what model servers returned.
	Journal() string
	// Stage creates the temporary folder of a snapshot for the target.
	Stage() (*Staging, error)

	// commit makes a staged snapshot public (see Staging.Commit).
	commit(ctx context.Context, s *Staging) (*Published, error)
}

// stateDir is a publish folder's own state folder.
const stateDir = ".ingest"

// journalFile and lockFile are the state folder's files.
const (
	journalFile = "journal.jsonl"
	lockFile    = "lock"
	holderFile  = "holder.json"
)

// snapshotFiles are the files a snapshot folder holds.
var snapshotFiles = map[string]bool{artifacts.ChunksFile: true, artifacts.ManifestFile: true, artifacts.ReportFile: true, artifacts.ThresholdsFile: true, artifacts.AuditFile: true, artifacts.DocumentsFile: true, artifacts.DiagnosticsFile: true}

// hasManifest reports whether dir holds a manifest.json: a snapshot, whole
// (the manifest is written last), though not necessarily sound.
func hasManifest(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile))
	return err == nil
}

// owned reports whether dir is a snapshot this tool wrote: its manifest
// says so (Tool), or has the shape only this tool's manifests have (written
// before Tool was); or, its manifest damaged past reading, its
// chunks.parquet carries this tool's schema version. File names alone
// prove nothing: anyone's folder can hold a manifest.json and a
// chunks.parquet.
func owned(dir string) bool {
	m, err := artifacts.ReadManifest(dir)
	if err == nil {
		return ownManifest(m)
	}
	if !hasManifest(dir) {
		return false
	}
	cf, err := artifacts.OpenAnyVersion(filepath.Join(dir, artifacts.ChunksFile))
	if err != nil {
		return false
	}
	defer cf.Close()
	return cf.SchemaVersion != ""
}

func ownManifest(m artifacts.Manifest) bool {
	switch {
	case m.SchemaVersion == "":
		return false
	case m.Tool != "":
		return m.Tool == artifacts.ToolName
	}
	return isSHA256(m.CorpusFingerprint) && isSHA256(m.ConfigHash) && isSHA256(m.Files[artifacts.ChunksFile].SHA256)
}

func isSHA256(s string) bool { return len(s) == 64 && artifacts.IsHex(s, 64) }

// NotOwnedError is a target the tool refuses to write: Key is the setting
// that named it ("out", "publish", "keep").
type NotOwnedError struct {
	Key, Path, Why string
}

func (e *NotOwnedError) Error() string { return e.Path + ": " + e.Why }

// refuse is a NotOwnedError naming t.
func refuse(t Target, why string, a ...any) error {
	return &NotOwnedError{Key: t.Key(), Path: t.String(), Why: fmt.Sprintf(why, a...)}
}

// checkCorpus refuses a target t whose folder on this machine, place, is
// the corpus, lies inside it (the next run would ingest the snapshot's own
// files) or holds it (a publish or replace would delete the sources).
func checkCorpus(t Target, place, corpus string) error {
	if corpus == "" {
		return nil
	}
	c, err := realPath(corpus)
	if err != nil {
		return nil // the corpus is checked where it is read
	}
	no := func(why string, a ...any) error {
		return &NotOwnedError{Key: t.Key(), Path: place, Why: fmt.Sprintf(why, a...)}
	}
	p, err := realPath(place)
	if err != nil {
		return no("%v", err)
	}
	switch {
	case p == c:
		return no("is the corpus folder; choose a folder outside it")
	case within(p, c):
		return no("is inside the corpus %s: the next run would ingest the snapshot; choose a folder outside it", corpus)
	case within(c, p):
		return no("holds the corpus %s; choose a folder outside it", corpus)
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

// The names of what a run makes and removes itself, so a later run can
// recognise what a crashed one left.
const (
	publishPrefix = ".publish-"
	tmpInfix      = ".tmp-"
	pruneInfix    = ".prune-"
	oldSuffix     = ".old"
)

// Staging is a snapshot being written: a temporary folder beside its target
// (under a dot name, which readers and Prune ignore), made public by Commit
// only when complete, so a failed or interrupted run leaves the previous
// snapshot untouched.
type Staging struct {
	Dir      string // write the snapshot's files here
	t        Target
	verified bool // Verify found it good: Commit need not read it again
}

// stage creates a staging folder for t in parent, on the target's file
// system so the final move is a rename, named by pattern.
func stage(t Target, parent, pattern string) (*Staging, error) {
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
	Name     string   // the snapshot's folder name (artifacts.SnapshotName of its manifest when published)
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
// its keep; a failed verification leaves latest and every published folder
// untouched. A bucket target verifies its build and uploads it. If only
// pruning fails the snapshot is published and the error wraps ErrPrune.
func (s *Staging) Commit(ctx context.Context) (*Published, error) { return s.t.commit(ctx, s) }
