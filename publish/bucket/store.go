package bucket

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish"
)

// A publish prefix in a bucket holds snapshots side by side, each under its
// name, and latest.json, the pointer, written last:
//
//	s3://knowledge/ocean/
//	  20261201T075000Z-3f2a9c01b7de/manifest.json, chunks.parquet, …
//	  20261202T075000Z-77b0e1d2c3f4/…
//	  20261202T075000Z-77b0e1d2c3f4.diff.md
//	  latest.json   {"name": "20261202T075000Z-77b0e1d2c3f4", …}
//	  .lease        while a run publishes
//
// A snapshot's objects are written with a conditional create, never
// overwritten; its manifest goes last, so a snapshot without one is an
// interrupted upload, which the next run removes.

// LatestFile is the pointer to the current snapshot of a publish prefix.
const LatestFile = "latest.json"

// Latest is latest.json.
type Latest struct {
	Name              string `json:"name"`
	CreatedAt         string `json:"created_at"`
	CorpusFingerprint string `json:"corpus_fingerprint"`
	ManifestSHA256    string `json:"manifest_sha256"`
}

// Store is a publish prefix in an object store.
type Store struct {
	b    Objects // the prefix's objects
	name string  // the URL, credentials removed: for messages
	// LeaseTTL is how long the lease holds without renewal (0:
	// DefaultLeaseTTL); set it before Acquire.
	LeaseTTL time.Duration
	lease    *held // the lease this store holds, if any
}

var _ publish.Remote = (*Store)(nil)

// IsURL reports whether s names an object store (s3://, gs://, azblob://,
// file://, mem://) rather than a local folder.
func IsURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && len(u.Scheme) > 1 && strings.Contains(s, "://")
}

// Open opens the publish prefix at rawURL: scheme://bucket/prefix?options
// (OpenObjects; S3-compatible servers: ?endpoint=http://host:port&
// use_path_style=true&region=…). Credentials come from the standard chains
// (AWS_ACCESS_KEY_ID…, a profile, the instance's role) and are never
// printed.
func Open(ctx context.Context, rawURL string) (*Store, error) {
	o, err := OpenObjects(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	return &Store{b: o, name: redact.URL(rawURL)}, nil
}

// at is the URL of a snapshot in the store, credentials removed: the name
// goes in the path, before the driver's options.
func (s *Store) at(name string) string {
	base, query, _ := strings.Cut(s.name, "?")
	u := strings.TrimSuffix(base, "/") + "/" + name
	if query != "" {
		u += "?" + query
	}
	return u
}

// String is the store's URL without credentials.
func (s *Store) String() string { return s.name }

// Close releases the store.
func (s *Store) Close() error { return s.b.Close() }

// snapshotName matches a published snapshot's name.
var snapshotName = regexp.MustCompile(`^\d{8}T\d{6}Z-[0-9a-f]{12}$`)

// ReadLatest reads latest.json; nil when nothing was published yet. One
// that names no snapshot is an error wrapping publish.ErrLatestBroken.
func (s *Store) ReadLatest(ctx context.Context) (*Latest, error) {
	b, err := readAll(ctx, s.b, LatestFile)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: read %s: %w", s, LatestFile, err)
	}
	var l Latest
	if err := json.Unmarshal(b, &l); err != nil || !snapshotName.MatchString(l.Name) {
		return nil, fmt.Errorf("%w: %s: %s names no snapshot", publish.ErrLatestBroken, s, LatestFile)
	}
	return &l, nil
}

// Latest downloads the current snapshot into dir/<name> (kept there as a
// cache: a snapshot never changes under its name) and returns its path; ""
// when nothing was published yet. A latest.json that names a snapshot
// that is not there (or not whole), or whose manifest is not the one it
// records (manifest_sha256), is an error wrapping publish.ErrLatestBroken.
func (s *Store) Latest(ctx context.Context, dir string) (string, error) {
	l, err := s.ReadLatest(ctx)
	if err != nil || l == nil {
		return "", err
	}
	local, err := s.fetch(ctx, l.Name, dir, l.ManifestSHA256)
	if errors.Is(err, errMissing) || errors.Is(err, errManifestDiffers) {
		return "", fmt.Errorf("%w: %s: %s: %w", publish.ErrLatestBroken, s, LatestFile, err)
	}
	return local, err
}

// errMissing is a snapshot, or one of its files, that is not in the store;
// errManifestDiffers a manifest that is not the one latest.json records.
var (
	errMissing         = errors.New("not in the store")
	errManifestDiffers = errors.New("not the manifest latest.json names")
)

// Fetch downloads the snapshot name into dir/name and returns its path. A
// copy already there whose manifest is the published one, and whose files
// match it, is used as is.
func (s *Store) Fetch(ctx context.Context, name, dir string) (string, error) {
	local, err := s.fetch(ctx, name, dir, "")
	if errors.Is(err, errMissing) {
		return "", fmt.Errorf("%s: %w", s, err)
	}
	return local, err
}

// fetch is Fetch; manifestSHA, when given, is the SHA-256 the snapshot's
// manifest must have (latest.json's manifest_sha256).
func (s *Store) fetch(ctx context.Context, name, dir, manifestSHA string) (string, error) {
	if !snapshotName.MatchString(name) {
		return "", fmt.Errorf("%s: %q is not a snapshot name", s, name)
	}
	local := filepath.Join(dir, name)
	mb, err := readAll(ctx, s.b, name+"/"+artifacts.ManifestFile)
	if isNotExist(err) {
		return "", fmt.Errorf("%s: %w", name, errMissing)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", s, err)
	}
	if sum := sha256.Sum256(mb); manifestSHA != "" && hex.EncodeToString(sum[:]) != manifestSHA {
		return "", fmt.Errorf("%s/%s has sha256 %s…, %s records %s…: %w", name, artifacts.ManifestFile, hex.EncodeToString(sum[:6]), LatestFile, manifestSHA[:min(12, len(manifestSHA))], errManifestDiffers)
	}
	if have, err := artifacts.ManifestBytes(local); err == nil && string(have) == string(mb) {
		if _, err := verify.VerifyFiles(local); err == nil {
			return local, nil
		}
	}
	var m artifacts.Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return "", fmt.Errorf("%s: %s/%s: %w", s, name, artifacts.ManifestFile, err)
	}
	tmp, err := os.MkdirTemp(dir, "."+name+".fetch-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := s.downloadTo(ctx, name, m, mb, tmp); err != nil {
		return "", err
	}
	_ = os.RemoveAll(local)
	if err := os.Rename(tmp, local); err != nil {
		return "", err
	}
	return local, nil
}

// downloadTo writes the snapshot name, of manifest m (mb as stored), into
// the folder dir.
func (s *Store) downloadTo(ctx context.Context, name string, m artifacts.Manifest, mb []byte, dir string) error {
	for file := range m.Files {
		if file != filepath.Base(file) || strings.HasPrefix(file, ".") || file == artifacts.ManifestFile {
			return fmt.Errorf("%s: %s/%s lists %q, not a file name of a snapshot", s, name, artifacts.ManifestFile, file)
		}
		if err := s.download(ctx, name+"/"+file, filepath.Join(dir, file)); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, artifacts.ManifestFile), mb, 0o644)
}

func (s *Store) download(ctx context.Context, key, dst string) error {
	r, err := s.b.Get(ctx, key)
	if isNotExist(err) {
		return fmt.Errorf("%s: %w", key, errMissing)
	}
	if err != nil {
		return fmt.Errorf("%s: read %s: %w", s, key, err)
	}
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("%s: read %s: %w", s, key, err)
	}
	return f.Close()
}

// Publish uploads the complete snapshot at dir under its name, reads every
// object back to check its size and SHA-256, then points latest.json at it
// and prunes beyond keep. The same content already published (under a name
// of another time) is pointed at instead of uploaded again, if it verifies;
// one that does not is copied aside (see quarantine), replaced by this
// build and removed. A latest.json that names no good snapshot is replaced.
func (s *Store) Publish(ctx context.Context, dir string, keep int) (*publish.Published, error) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	name, err := artifacts.SnapshotName(m)
	if err != nil {
		return nil, err
	}
	pub := &publish.Published{Name: name}
	previous, latestSHA := "", ""
	switch l, err := s.ReadLatest(ctx); {
	case errors.Is(err, publish.ErrLatestBroken): // replaced by this publish
	case err != nil:
		return nil, err
	case l != nil:
		pub.Previous, previous, latestSHA = s.at(l.Name), l.Name, l.ManifestSHA256
	}
	good, broken, err := s.sameContent(ctx, m, filepath.Dir(dir), previous, latestSHA)
	if err != nil {
		return nil, err
	}
	for _, b := range broken { // the evidence first, before anything is removed
		q, err := s.quarantine(ctx, b)
		if err != nil {
			return nil, err
		}
		pub.Quarantined = append(pub.Quarantined, q)
	}
	removed := map[string]bool{}
	if good != "" {
		pub.Name, pub.Reused = good, true
	} else {
		if slices.ContainsFunc(broken, func(b brokenSnapshot) bool { return b.name == name }) {
			if err := s.remove(ctx, name); err != nil { // in this build's way; its copy is aside
				return nil, err
			}
			removed[name] = true
		}
		if err := s.upload(ctx, dir, name, m); err != nil {
			return nil, err
		}
	}
	pub.Path = s.at(pub.Name)
	if err := s.holding(ctx); err != nil { // another run may be publishing now: latest.json is its to write
		return nil, fmt.Errorf("not publishing: %w", err)
	}
	if err := s.point(ctx, pub.Name); err != nil {
		return nil, err
	}
	for _, b := range broken {
		if !removed[b.name] {
			if err := s.remove(ctx, b.name); err != nil {
				return pub, fmt.Errorf("%w: %w", publish.ErrPrune, err) // published; its copy is aside, the next run removes it
			}
		}
		if b.name == previous {
			pub.Previous, previous = "", "" // nothing to diff against or keep: it was broken
		}
	}
	if pub.Pruned, err = s.prune(ctx, keep, pub.Name, previous); err != nil {
		return pub, fmt.Errorf("%w: %w", publish.ErrPrune, err)
	}
	return pub, nil
}

// upload writes the snapshot's files, the manifest last, each with a
// conditional create, then reads each back.
func (s *Store) upload(ctx context.Context, dir, name string, m artifacts.Manifest) error {
	files := make([]string, 0, len(m.Files)+1)
	for f := range m.Files {
		files = append(files, f)
	}
	slices.Sort(files)
	files = append(files, artifacts.ManifestFile)
	for _, f := range files {
		if err := s.put(ctx, name+"/"+f, filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	for _, f := range files {
		want, err := artifacts.Describe(filepath.Join(dir, f))
		if err != nil {
			return err
		}
		if got, err := s.describe(ctx, name+"/"+f); err != nil {
			return err
		} else if got != want {
			return fmt.Errorf("%s: %s/%s read back as %d bytes %s, uploaded %d bytes %s", s, name, f, got.Bytes, got.SHA256[:12], want.Bytes, want.SHA256[:12])
		}
	}
	return nil
}

// put creates key from the file at src; an object already there (a retried
// upload) is accepted only when it is the same bytes.
func (s *Store) put(ctx context.Context, key, src string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return err
	}
	err = s.b.Put(ctx, key, f, info.Size(), PutOptions{IfNotExist: true})
	if isExist(err) {
		want, derr := artifacts.Describe(src)
		got, gerr := s.describe(ctx, key)
		if derr == nil && gerr == nil && got == want {
			return nil
		}
		return fmt.Errorf("%s: %s exists with other content; a published object is never overwritten", s, key)
	}
	if err != nil {
		return fmt.Errorf("%s: write %s: %w", s, key, err)
	}
	return nil
}

func (s *Store) describe(ctx context.Context, key string) (artifacts.FileInfo, error) {
	r, err := s.b.Get(ctx, key)
	if err != nil {
		return artifacts.FileInfo{}, fmt.Errorf("%s: read %s: %w", s, key, err)
	}
	defer r.Close()
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return artifacts.FileInfo{}, fmt.Errorf("%s: read %s: %w", s, key, err)
	}
	return artifacts.FileInfo{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// point writes latest.json for the snapshot name, the last step of a
// publish: readers that follow it find a complete, checked snapshot.
func (s *Store) point(ctx context.Context, name string) error {
	mb, err := readAll(ctx, s.b, name+"/"+artifacts.ManifestFile)
	if err != nil {
		return fmt.Errorf("%s: %w", s, err)
	}
	var m artifacts.Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return err
	}
	sum := sha256.Sum256(mb)
	b, _ := json.MarshalIndent(Latest{Name: name, CreatedAt: m.CreatedAt, CorpusFingerprint: m.CorpusFingerprint, ManifestSHA256: hex.EncodeToString(sum[:])}, "", "  ")
	if err := writeAll(ctx, s.b, LatestFile, append(b, '\n'), PutOptions{ContentType: "application/json"}); err != nil {
		return fmt.Errorf("%s: write %s: %w", s, LatestFile, err)
	}
	return nil
}

// Snapshots lists the complete snapshots of the prefix (those with a
// manifest), oldest first: by the time their names start with, then by
// when their manifest was written (two runs can share a second).
func (s *Store) Snapshots(ctx context.Context) ([]string, error) {
	prefixes, err := s.prefixes(ctx)
	if err != nil {
		return nil, err
	}
	type snap struct {
		name    string
		written time.Time
	}
	var found []snap
	for _, p := range prefixes {
		a, err := s.b.Stat(ctx, p+"/"+artifacts.ManifestFile)
		if isNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		found = append(found, snap{p, a.ModTime})
	}
	slices.SortStableFunc(found, func(a, b snap) int {
		return cmp.Or(cmp.Compare(a.name[:16], b.name[:16]), a.written.Compare(b.written), cmp.Compare(a.name, b.name))
	})
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.name
	}
	return out, nil
}

// prefixes lists the top-level names that look like snapshots, sorted.
func (s *Store) prefixes(ctx context.Context) ([]string, error) {
	var out []string
	for o, err := range s.b.List(ctx, "", "/") {
		if err != nil {
			return nil, fmt.Errorf("%s: list: %w", s, err)
		}
		if name := strings.TrimSuffix(o.Key, "/"); o.IsDir && snapshotName.MatchString(name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// prune deletes the oldest complete snapshots beyond keep, never latest,
// with the diff reports beside them, and returns their names. The snapshot
// latest pointed at before (previous) goes last: snapshots made in the same
// second are otherwise ordered by chance, and the previous one is what a
// rollback and the night's diff report read.
func (s *Store) prune(ctx context.Context, keep int, latest, previous string) ([]string, error) {
	if keep < 1 {
		keep = publish.DefaultKeep
	}
	names, err := s.Snapshots(ctx)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(names, previous); i >= 0 {
		names = append(slices.Delete(names, i, i+1), previous)
	}
	var pruned []string
	excess := len(names) - keep
	for _, name := range names { // oldest first
		if len(pruned) >= excess {
			break
		}
		if name == latest {
			continue
		}
		if err := s.remove(ctx, name); err != nil {
			return pruned, err
		}
		for _, ext := range []string{".diff.md", ".diff.json"} {
			if err := s.b.Delete(ctx, name+ext); err != nil {
				return pruned, fmt.Errorf("%s: %w", s, err)
			}
		}
		pruned = append(pruned, name)
	}
	return pruned, nil
}

// remove deletes every object under name/, its manifest first, so that a
// half-removed snapshot reads as incomplete, never as whole.
func (s *Store) remove(ctx context.Context, name string) error {
	if err := s.b.Delete(ctx, name+"/"+artifacts.ManifestFile); err != nil {
		return fmt.Errorf("%s: %w", s, err)
	}
	for o, err := range s.b.List(ctx, name+"/", "") {
		if err != nil {
			return fmt.Errorf("%s: list %s: %w", s, name, err)
		}
		if err := s.b.Delete(ctx, o.Key); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// Clean removes the snapshots an interrupted upload left (no manifest) and
// returns their names. A snapshot without a manifest that is not after
// latest (the one latest.json names, or an older one; any, when
// latest.json cannot be read; none, when there is none, since nothing was
// published) was published whole once and lost its
// manifest since: its objects are copied aside under brokenPrefix before
// it is removed, as a broken snapshot's are, never only deleted. An upload
// interrupted before its manifest is always newer than latest: every run
// cleans the prefix before it publishes. Call it under the lease.
func (s *Store) Clean(ctx context.Context) (removed []string, aside []publish.Quarantined, err error) {
	prefixes, err := s.prefixes(ctx)
	if err != nil {
		return nil, nil, err
	}
	latest, lerr := s.ReadLatest(ctx)
	for _, p := range prefixes {
		ok, err := exists(ctx, s.b, p+"/"+artifacts.ManifestFile)
		if err != nil {
			return removed, aside, fmt.Errorf("%s: %w", s, err)
		}
		if ok {
			continue
		}
		empty, err := s.empty(ctx, p+"/")
		if err != nil {
			return removed, aside, err
		}
		if empty { // a folder the server keeps after its last object (SeaweedFS), not an upload
			continue
		}
		if lerr != nil || latest != nil && p <= latest.Name { // names sort by time
			q, err := s.quarantine(ctx, brokenSnapshot{name: p, problems: []string{publish.ManifestMissing}})
			if err != nil {
				return removed, aside, err
			}
			aside = append(aside, q)
		} else {
			removed = append(removed, p)
		}
		if err := s.remove(ctx, p); err != nil {
			return removed, aside, err
		}
	}
	return removed, aside, nil
}

// empty reports whether no object lies under prefix.
func (s *Store) empty(ctx context.Context, prefix string) (bool, error) {
	for _, err := range s.b.List(ctx, prefix, "") {
		if err != nil {
			return false, fmt.Errorf("%s: list %s: %w", s, prefix, err)
		}
		return false, nil
	}
	return true, nil
}

// PutRaw writes the file at src to key as it is: for tests that stage a
// half-finished upload.
func (s *Store) PutRaw(ctx context.Context, key, src string) error { return s.put(ctx, key, src) }

// PutReport writes a diff report beside a snapshot (name.diff.md).
func (s *Store) PutReport(ctx context.Context, name, ext string, b []byte) error {
	if !snapshotName.MatchString(name) {
		return fmt.Errorf("%s: %q is not a snapshot name", s, name)
	}
	return writeAll(ctx, s.b, path.Clean(name+ext), b, PutOptions{})
}
