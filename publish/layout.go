package publish

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
)

// A publish folder holds snapshots side by side, each in a folder named by
// artifacts.SnapshotName, and a symlink "latest" to the current one:
//
//	DIR/
//	  3f2a9c01b7de-9e1c44aa0b52-1a2b3c4d/   manifest.json, chunks.parquet, ...
//	  77b0e1d2c3f4-9e1c44aa0b52-5e6f7a8b/
//	  latest -> 77b0e1d2c3f4-9e1c44aa0b52-5e6f7a8b
//
// A snapshot folder is never written once it has its name: it appears
// complete (by rename), is pointed to (by replacing the symlink), and
// disappears whole (renamed aside, then removed). A reader that resolves
// latest and opens its files never sees a partial snapshot.

// LatestLink is the name of the pointer to the current snapshot.
const LatestLink = "latest"

// DefaultKeep is how many snapshots a publish folder keeps: the last few runs
// to diff against or roll back to, without keeping every run on disk.
const DefaultKeep = 5

// ErrPrune marks a publish that succeeded (latest points to the new
// snapshot) but could not remove old snapshots: a warning, not a failure.
var ErrPrune = errors.New("prune old snapshots")

// Latest returns the path of the current snapshot of a publish folder. It
// wraps os.ErrNotExist when nothing was published yet.
func Latest(dir string) (string, error) {
	target, err := os.Readlink(filepath.Join(dir, LatestLink))
	if err != nil {
		return "", fmt.Errorf("latest snapshot in %s: %w", dir, err)
	}
	if err := checkSnapshotName(target); err != nil {
		return "", fmt.Errorf("latest snapshot in %s: %w", dir, err)
	}
	return filepath.Join(dir, target), nil
}

// PromoteLatest points dir/latest at dir/snapshotName, atomically: a new
// symlink is made under a temporary name and renamed over the old one, so a
// reader finds either the old target or the new, never none. It refuses a
// snapshot without a manifest, since the manifest is written last.
func PromoteLatest(dir, snapshotName string) error {
	if err := checkSnapshotName(snapshotName); err != nil {
		return fmt.Errorf("promote: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, snapshotName, artifacts.ManifestFile)); err != nil {
		return fmt.Errorf("promote %s: not a complete snapshot: %w", snapshotName, err)
	}
	tmp := filepath.Join(dir, "."+LatestLink+".tmp-"+randomSuffix())
	if err := os.Symlink(snapshotName, tmp); err != nil {
		return fmt.Errorf("promote %s: %w", snapshotName, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, LatestLink)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("promote %s: %w", snapshotName, err)
	}
	if err := SyncDir(dir); err != nil {
		return fmt.Errorf("promote %s: %w", snapshotName, err)
	}
	return nil
}

// publishedName reports whether name has the form artifacts.SnapshotName gives a
// published snapshot's folder: a mark of this tool's, as a snapshot's
// manifest is.
func publishedName(name string) bool { return publishedNameRE.MatchString(name) }

var publishedNameRE = regexp.MustCompile(`^\d{8}T\d{6}Z-[0-9a-f]{12}$`)

// checkSnapshotName refuses a name that would leave the publish folder or
// hide in it: latest always points at a sibling folder.
func checkSnapshotName(name string) error {
	if name == "" || name == LatestLink || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
		return fmt.Errorf("%q is not a snapshot name", name)
	}
	return nil
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:]) // crypto/rand does not fail on supported systems
	return hex.EncodeToString(b[:])
}

// checkBuild verifies a finished build (unless Verify already found it
// good) and returns its name.
func (s *Staging) checkBuild(ctx context.Context) (string, error) {
	if err := s.verify(ctx, s.Dir); err != nil {
		return "", err
	}
	m, err := artifacts.ReadManifest(s.Dir)
	if err != nil {
		return "", err
	}
	return artifacts.SnapshotName(m)
}

// verify checks the build, now at dir, unless Verify found it good.
func (s *Staging) verify(ctx context.Context, dir string) error {
	if s.verified {
		return nil
	}
	rep, err := verify.VerifyContext(ctx, dir)
	if err != nil {
		return err
	}
	if !rep.OK() {
		return fmt.Errorf("the new snapshot fails verification: %s", strings.Join(rep.Problems(), "; "))
	}
	return nil
}

// Verify checks the staged snapshot as Commit would, and returns the
// problems found (none: it verifies, and Commit does not read it again).
func (s *Staging) Verify(ctx context.Context) ([]string, error) {
	rep, err := verify.VerifyContext(ctx, s.Dir)
	if err != nil {
		return nil, err
	}
	s.verified = rep.OK()
	return rep.Problems(), nil
}

// VerifyDeclared checks the staged snapshot without hashing a file or
// reading a row, for a caller that put there the files of a snapshot whose
// bytes it verified as it read them (an unchanged night links the previous
// snapshot's files, each hashed when the run opened it): its manifest
// against what the files it hashes recorded (verify.Declared). When the run
// that made the files recorded what their rows add up to and nothing
// disagrees, the snapshot is verified, and Commit does not read it again;
// otherwise it verifies it as Verify does, rows and all. It returns the
// problems found.
func (s *Staging) VerifyDeclared(ctx context.Context) ([]string, error) {
	problems, rows, err := verify.Declared(s.Dir)
	switch {
	case err != nil:
		return nil, err
	case len(problems) > 0:
		return problems, nil
	case !rows: // an older ingest's snapshot: only its rows say what its manifest's counts should be
		return s.Verify(ctx)
	}
	s.verified = true
	return nil, nil
}

// moveIn renames the build to its published path, unless the same content
// is already published (under this name, or made at another time) and
// verifies: then it returns that folder's name, and a published folder is
// never replaced under its readers. Folders of the same content that fail
// verification come back in broken, for the caller to move aside once
// latest names another; one in the build's own way is moved aside first.
func moveIn(ctx context.Context, build, path, state string) (name string, reused bool, broken []candidate, moved []Quarantined, err error) {
	dir, name := filepath.Dir(path), filepath.Base(path)
	good, broken, err := sameContent(ctx, dir, name)
	if err != nil {
		return "", false, nil, nil, err
	}
	if good != "" {
		return good, true, broken, nil, nil
	}
	for i, b := range broken {
		if b.name == name { // the build's own name: its place must be free
			q, err := quarantine(dir, state, b.name, b.problems)
			if err != nil {
				return "", false, nil, nil, err
			}
			moved, broken = append(moved, q), append(broken[:i:i], broken[i+1:]...)
			break
		}
	}
	if err := os.Rename(build, path); err != nil {
		// A concurrent publish of the same snapshot may have won the race.
		if _, serr := os.Stat(filepath.Join(path, artifacts.ManifestFile)); serr == nil {
			return name, true, broken, moved, nil
		}
		return "", false, nil, moved, err
	}
	return name, false, broken, moved, SyncDir(dir)
}

// Prune removes the oldest snapshots of a publish folder (by the manifest's
// created_at) until keep remain, and returns the names removed, oldest
// first. The one latest points to is never removed, whatever its age; a
// folder without a readable manifest is not a snapshot and is left alone.
// A snapshot is renamed aside before it is deleted, so it disappears whole.
func Prune(dir string, keep int) ([]string, error) {
	if keep < 1 {
		return nil, fmt.Errorf("prune %s: keep %d: want at least 1", dir, keep)
	}
	snaps, err := listSnapshots(dir)
	if err != nil {
		return nil, fmt.Errorf("prune %s: %w", dir, err)
	}
	latest, _ := os.Readlink(filepath.Join(dir, LatestLink))
	var removed []string
	for k := len(snaps) - 1; k >= keep; k-- { // oldest first
		name := snaps[k].name
		if name == latest {
			continue
		}
		aside := filepath.Join(dir, "."+name+".prune-"+randomSuffix())
		if err := os.Rename(filepath.Join(dir, name), aside); err != nil {
			return removed, fmt.Errorf("prune %s: %w", name, err)
		}
		removed = append(removed, name)
		if err := os.RemoveAll(aside); err != nil {
			return removed, fmt.Errorf("prune %s: %w", name, err)
		}
		for _, ext := range []string{".diff.md", ".diff.json"} { // the reports written beside it
			if err := os.Remove(filepath.Join(dir, name+ext)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return removed, fmt.Errorf("prune %s: %w", name+ext, err)
			}
		}
	}
	return removed, nil
}

type listedSnapshot struct {
	name             string
	created, written time.Time
}

// listSnapshots returns a publish folder's snapshots, newest first: by
// created_at, then by when the manifest was written (created_at has whole
// seconds; two runs can share one), then by name.
func listSnapshots(dir string) ([]listedSnapshot, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []listedSnapshot
	for _, e := range entries {
		if !e.IsDir() || checkSnapshotName(e.Name()) != nil {
			continue
		}
		m, err := artifacts.ReadManifest(filepath.Join(dir, e.Name()))
		if err != nil || !ownManifest(m) {
			continue // not a snapshot of ours, or one too damaged to date: never pruned
		}
		info, err := os.Stat(filepath.Join(dir, e.Name(), artifacts.ManifestFile))
		if err != nil {
			continue
		}
		created, _ := time.Parse(time.RFC3339, m.CreatedAt) // unreadable: the zero time, the oldest
		out = append(out, listedSnapshot{e.Name(), created, info.ModTime()})
	}
	slices.SortFunc(out, func(a, b listedSnapshot) int {
		return cmp.Or(b.created.Compare(a.created), b.written.Compare(a.written), cmp.Compare(b.name, a.name))
	})
	return out, nil
}
