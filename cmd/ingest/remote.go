package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/bucket"
	"github.com/ocean-safety/ingest/internal/redact"
)

// workDir is where a run that publishes to an object store builds its
// snapshot and keeps its state (lock, journal, the downloaded previous
// snapshot): $INGEST_WORK_DIR, else the user's cache folder, one folder per
// publish URL, so a killed nightly run resumes on the same machine.
func workDir(publishURL string) (string, error) {
	if d := os.Getenv("INGEST_WORK_DIR"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("a work folder for %s: %w (set INGEST_WORK_DIR)", redact.URL(publishURL), err)
	}
	sum := sha256.Sum256([]byte(redact.URL(publishURL)))
	return filepath.Join(base, "ingest", hex.EncodeToString(sum[:6])), nil
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

// shownAs is a snapshot argument as messages show it: a path as given, a
// URL as given with its credentials removed (never the temporary folder a
// bucket's snapshot was fetched to).
func shownAs(arg string) string {
	if bucket.IsURL(arg) {
		return redact.URL(arg)
	}
	return arg
}

// errNothingPublished is URL/latest of a prefix no run has published to.
var errNothingPublished = errors.New("nothing published yet")

// snapshotArg is snapshotFolder for a reader that trusts what it reads
// (inspect, diff, search, eval, thresholds): the snapshot's files must be
// those its manifest describes (artifacts.VerifyFiles: sizes and SHA-256,
// no row decoded), so a tampered or damaged snapshot is named as such, not
// read as if it were what its manifest says.
func snapshotArg(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	dir, cleanup, err = snapshotFolder(ctx, arg)
	if err != nil {
		return "", cleanup, err
	}
	if _, err = artifacts.VerifyFiles(dir); err != nil {
		var broken *artifacts.BrokenError
		if errors.As(err, &broken) && dir != arg {
			broken.Dir = redact.URL(arg) // not the temporary folder it was downloaded to
		}
		cleanup()
		return "", func() {}, err
	}
	return dir, cleanup, nil
}

// snapshotFolder is localSnapshot for a command's snapshot argument,
// checked to be a snapshot folder (isSnapshotDir) before any reader opens it.
func snapshotFolder(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	dir, cleanup, err = localSnapshot(ctx, arg)
	if err == nil {
		err = isSnapshotDir(dir)
	}
	if err != nil {
		cleanup()
		return "", func() {}, err
	}
	return dir, cleanup, nil
}

// localSnapshot makes a snapshot argument a local folder: a path is used
// as it is; a URL (s3://bucket/prefix/latest, …/<name>) is downloaded into
// a temporary folder, which cleanup removes.
func localSnapshot(ctx context.Context, arg string) (dir string, cleanup func(), err error) {
	cleanup = func() {}
	if !bucket.IsURL(arg) {
		return arg, cleanup, nil
	}
	prefix, snap, err := splitSnapshotURL(arg)
	if err != nil {
		return "", cleanup, err
	}
	store, err := bucket.Open(ctx, prefix)
	if err != nil {
		return "", cleanup, err
	}
	defer store.Close()
	tmp, err := os.MkdirTemp("", "ingest-fetch-")
	if err != nil {
		return "", cleanup, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	if snap == "latest" {
		dir, err = store.Latest(ctx, tmp)
		if err == nil && dir == "" {
			err = fmt.Errorf("%s: %w", store, errNothingPublished)
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

// publishTarget is the target of --publish DIR or --publish URL.
func publishTarget(ctx context.Context, publish string, keep int, prev string) (artifacts.Target, func(), error) {
	if !bucket.IsURL(publish) {
		return artifacts.PublishTarget(publish, keep, prev), func() {}, nil
	}
	store, err := bucket.Open(ctx, publish)
	if err != nil {
		return artifacts.Target{}, func() {}, err
	}
	work, err := workDir(publish)
	if err != nil {
		store.Close()
		return artifacts.Target{}, func() {}, err
	}
	return artifacts.RemoteTarget(store, work, keep, prev), func() { store.Close() }, nil
}

// joinPlace adds a name to a folder path or to a bucket URL's path (its
// query, the driver's options, kept).
func joinPlace(place, name string) string {
	if !bucket.IsURL(place) {
		return filepath.Join(place, name)
	}
	u, err := url.Parse(place)
	if err != nil {
		return place + "/" + name // refused with a clear message when opened
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + name
	return u.String()
}
