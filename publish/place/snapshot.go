package place

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// ErrNothingPublished is URL/latest of a prefix no run has published to.
var ErrNothingPublished = errors.New("nothing published yet")

// Snapshot makes a snapshot argument a local folder: a path is used as it
// is; a URL (s3://bucket/prefix/latest, …/<name>) is downloaded into a
// temporary folder, which cleanup removes.
func Snapshot(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	return parse(arg).snapshot(ctx)
}

// Folder is Snapshot checked to be a snapshot folder before any reader
// opens it.
func Folder(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	dir, cleanup, err = Snapshot(ctx, arg)
	if err == nil {
		err = isSnapshotDir(dir)
	}
	if err != nil {
		cleanup()
		return "", func() {}, err
	}
	return dir, cleanup, nil
}

// Trusted is Folder for a reader that trusts what it reads (inspect, diff,
// search, eval, thresholds, push): the snapshot's files must be those its
// manifest describes (verify.VerifyFiles: sizes and SHA-256, no row
// decoded), so a tampered or damaged snapshot is named as such, not read as
// if it were what its manifest says.
func Trusted(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	dir, cleanup, err = Folder(ctx, arg)
	if err != nil {
		return "", cleanup, err
	}
	if _, err = verify.VerifyFiles(dir); err != nil {
		var broken *verify.BrokenError
		if errors.As(err, &broken) && dir != arg {
			broken.Dir = redact.URL(arg) // not the temporary folder it was downloaded to
		}
		cleanup()
		return "", func() {}, err
	}
	return dir, cleanup, nil
}

// Part makes a part argument of a merge a local snapshot folder: a
// snapshot folder as it is, a folder a part was published to at its
// latest, a URL as Snapshot takes it (URL/latest, URL/<name>; a URL naming
// the publish prefix itself means its latest).
func Part(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	return parse(arg).part(ctx)
}

// isSnapshotDir refuses, with a message that says what it is, a folder
// that is not a snapshot, before a reader trips on it.
func isSnapshotDir(dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such snapshot folder", dir)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s: a file, not a snapshot folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile)); err != nil {
		if latest, lerr := publish.Latest(dir); lerr == nil {
			return fmt.Errorf("%s: a publish folder, not a snapshot; its latest snapshot is %s", dir, latest)
		}
		return fmt.Errorf("%s: not an ingest snapshot (no %s)", dir, artifacts.ManifestFile)
	}
	return nil
}

func (f folder) snapshot(context.Context) (string, func(), error) { return string(f), func() {}, nil }

func (f folder) part(context.Context) (string, func(), error) {
	if _, err := os.Stat(filepath.Join(string(f), artifacts.ManifestFile)); err == nil {
		return string(f), func() {}, nil
	}
	dir, err := publish.Latest(string(f))
	if err != nil {
		return "", func() {}, fmt.Errorf("no part there (did that shard's run finish?)")
	}
	return dir, func() {}, nil
}

// snapshot downloads the snapshot URL/latest or URL/<name> into a
// temporary folder.
func (p prefix) snapshot(ctx context.Context) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	pre, snap, err := splitSnapshotURL(string(p))
	if err != nil {
		return "", cleanup, err
	}
	store, err := bucket.Open(ctx, pre)
	if err != nil {
		return "", cleanup, err
	}
	defer store.Close()
	tmp, err := os.MkdirTemp("", "ingest-fetch-")
	if err != nil {
		return "", cleanup, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	if snap == publish.LatestLink {
		dir, err = store.Latest(ctx, tmp)
		if err == nil && dir == "" {
			err = fmt.Errorf("%s: %w", store, ErrNothingPublished)
		}
	} else {
		dir, err = store.Fetch(ctx, snap, tmp)
	}
	if err != nil {
		cleanup()
		return "", func() {}, err
	}
	return dir, cleanup, nil
}

func (p prefix) part(ctx context.Context) (string, func(), error) {
	if _, snap, err := splitSnapshotURL(string(p)); err != nil || !isSnapshotRef(snap) {
		return prefix(p.join(publish.LatestLink)).snapshot(ctx)
	}
	return p.snapshot(ctx)
}

// splitSnapshotURL cuts URL/latest or URL/<name> into the publish prefix's
// URL and the snapshot ("latest" or a name).
func splitSnapshotURL(raw string) (prefix, snapshot string, err error) {
	// "s3://b/prefix?endpoint=…&region=x/latest": the name written after the
	// driver's options, as a shell recipe builds it from a publish URL.
	if q, i := strings.IndexByte(raw, '?'), strings.LastIndexByte(raw, '/'); q >= 0 && i > q && isSnapshotRef(raw[i+1:]) {
		return raw[:i], raw[i+1:], nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", err
	}
	snapshot = path.Base(u.Path)
	if snapshot == "/" || snapshot == "." || snapshot == "" {
		return "", "", fmt.Errorf("%s: name a snapshot: URL/latest or URL/<name>", redact.URL(raw))
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/"+snapshot)
	return u.String(), snapshot, nil
}

// snapshotName is a published snapshot's folder name (artifacts.SnapshotName).
var snapshotName = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{12}$`)

// isSnapshotRef reports whether a URL's last element names a snapshot
// rather than a publish prefix: "latest" or a snapshot's folder name.
func isSnapshotRef(s string) bool { return s == publish.LatestLink || snapshotName.MatchString(s) }

// Manifest reads the manifest of the snapshot arg names: a folder, or a
// bucket's URL/latest or URL/NAME, downloaded to a temporary folder that
// is removed before it returns. It is Trusted's: a snapshot whose files
// are not those its manifest describes is refused, not believed (embed
// took its embedder from any manifest.json).
func Manifest(ctx context.Context, arg string) (artifacts.Manifest, error) {
	dir, cleanup, err := Trusted(ctx, arg)
	if err != nil {
		return artifacts.Manifest{}, err
	}
	defer cleanup()
	return artifacts.ReadManifest(dir)
}
