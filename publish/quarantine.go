package publish

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts/verify"
)

// A published snapshot that fails verification is never silently reused
// nor silently deleted. When a publish finds one under the content it would
// otherwise skip as identical, it publishes its own build instead, moves
// latest, and then moves the broken folder aside, whole, into the state
// folder (DIR/.ingest/broken/NAME-<time>/), where it can be inspected and
// removed by hand. Nothing else ever writes or prunes there.

// brokenDir is the state folder's subfolder of snapshots moved aside.
const brokenDir = "broken"

// ErrLatestBroken marks a latest that names no good snapshot: a missing
// folder or object, a pointer that cannot be read, a manifest that is not
// the one the pointer records. A run reports it and publishes a new latest;
// a reader (verify, --prev) is told so.
var ErrLatestBroken = errors.New("latest names no good snapshot")

// Quarantined is a published snapshot that failed verification and was
// moved aside.
type Quarantined struct {
	Name     string   `json:"name"`     // its name in the publish folder or prefix
	Path     string   `json:"path"`     // where it is now
	Problems []string `json:"problems"` // what verification found
}

// quarantine moves the snapshot dir/name aside into the state folder.
func quarantine(dir, state, name string, problems []string) (Quarantined, error) {
	aside := filepath.Join(state, brokenDir)
	if err := os.MkdirAll(aside, 0o755); err != nil {
		return Quarantined{}, fmt.Errorf("move %s aside: %w", name, err)
	}
	to := filepath.Join(aside, name+"-"+time.Now().UTC().Format("20060102T150405.000000000Z"))
	if err := os.Rename(filepath.Join(dir, name), to); err != nil {
		return Quarantined{}, fmt.Errorf("move %s aside: %w", name, err)
	}
	if err := SyncDir(dir); err != nil {
		return Quarantined{}, fmt.Errorf("move %s aside: %w", name, err)
	}
	return Quarantined{Name: name, Path: to, Problems: problems}, nil
}

// candidate is a published folder holding the content a build would
// publish, and whether it verifies.
type candidate struct {
	name     string
	problems []string // nil when it verifies
}

// sameContent verifies every published snapshot of the publish folder dir
// holding the content of name (the same content part, whatever its time)
// and returns the first that verifies ("" for none) and those that fail.
func sameContent(ctx context.Context, dir, name string) (good string, broken []candidate, err error) {
	_, key, ok := strings.Cut(name, "-")
	if !ok {
		return "", nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, err
	}
	for _, e := range entries {
		if !e.IsDir() || checkSnapshotName(e.Name()) != nil || !strings.HasSuffix(e.Name(), "-"+key) || !hasManifest(filepath.Join(dir, e.Name())) {
			continue
		}
		rep, err := verify.VerifyContext(ctx, filepath.Join(dir, e.Name()))
		if err != nil {
			return "", nil, err
		}
		switch {
		case !rep.OK():
			broken = append(broken, candidate{e.Name(), rep.Problems()})
		case good == "" || e.Name() == name:
			good = e.Name()
		}
	}
	return good, broken, nil
}

// headless reports whether dir is a snapshot of this tool's that lost its
// manifest: in a place where the tool has run (its state folder holds the
// lock: nothing but a run makes one, and a run starts only where Check
// found nothing but the tool's), holding a snapshot's files and nothing
// else, none of them the manifest. Such a folder is neither a snapshot
// (the manifest proves one) nor anyone else's: it is moved aside and
// healed, never deleted, and never mistaken for a folder the tool does not
// own.
func headless(dir, state string) bool {
	if hasManifest(dir) {
		return false
	}
	if _, err := os.Stat(filepath.Join(state, lockFile)); err != nil {
		return false
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !snapshotFiles[e.Name()] {
			return false
		}
	}
	return true
}

// moveHeadless moves aside, under the lock, the snapshots of dir (a
// publish folder) that lost their manifest, and says where each went.
func moveHeadless(dir, state string) ([]Quarantined, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("heal %s: %w", dir, err)
	}
	var moved []Quarantined
	for _, e := range entries {
		if !e.IsDir() || !publishedName(e.Name()) || !headless(filepath.Join(dir, e.Name()), state) {
			continue
		}
		q, err := quarantine(dir, state, e.Name(), []string{ManifestMissing})
		if err != nil {
			return moved, fmt.Errorf("heal %s: %w", dir, err)
		}
		moved = append(moved, q)
	}
	return moved, nil
}

// ManifestMissing is the problem of a snapshot that lost its manifest.
const ManifestMissing = "manifest.json: missing"
