package bucket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
)

// brokenPrefix holds the published snapshots that failed verification,
// copied aside before they were removed: brokenPrefix/NAME-<time>/…. No
// run writes, lists or prunes there again; inspect it, then delete it.
const brokenPrefix = ".broken"

// brokenSnapshot is a published snapshot that failed verification.
type brokenSnapshot struct {
	name     string
	problems []string
}

// sameContent verifies every published snapshot holding the content of
// the manifest m (the same content part, whatever its time) and returns the
// first that verifies ("" for none) and those that fail. Each is read back
// whole into a temporary folder under work and verified there, as a folder
// publish verifies its own; latest's manifest must also be the one
// latest.json records (latestSHA).
func (s *Store) sameContent(ctx context.Context, m artifacts.Manifest, work, latest, latestSHA string) (good string, broken []brokenSnapshot, err error) {
	key, err := artifacts.ContentKey(m)
	if err != nil {
		return "", nil, err
	}
	names, err := s.Snapshots(ctx)
	if err != nil {
		return "", nil, err
	}
	for _, name := range names {
		if !strings.HasSuffix(name, "-"+key) {
			continue
		}
		want := ""
		if name == latest {
			want = latestSHA
		}
		problems, err := s.check(ctx, name, key, work, want)
		switch {
		case err != nil:
			return "", nil, err
		case len(problems) > 0:
			broken = append(broken, brokenSnapshot{name, problems})
		case good == "":
			good = name
		}
	}
	return good, broken, nil
}

// check reads the snapshot name back into a temporary folder under work
// and verifies it; it returns the problems found (none: it verifies). An
// error is the store's or the disk's, not the snapshot's.
func (s *Store) check(ctx context.Context, name, key, work, manifestSHA string) ([]string, error) {
	mb, err := readAll(ctx, s.b, name+"/"+artifacts.ManifestFile)
	if isNotExist(err) {
		return []string{"manifest.json: not in the store"}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s, err)
	}
	var problems []string
	if sum := sha256.Sum256(mb); manifestSHA != "" && hex.EncodeToString(sum[:]) != manifestSHA {
		problems = append(problems, fmt.Sprintf("manifest.json: sha256 %s, latest.json records %s", hex.EncodeToString(sum[:6]), manifestSHA[:min(12, len(manifestSHA))]))
	}
	var m artifacts.Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return append(problems, "manifest.json: "+err.Error()), nil
	}
	if got, _ := artifacts.ContentKey(m); got != key {
		problems = append(problems, fmt.Sprintf("manifest.json: describes content %q, the name says %s", got, key))
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(work, ".check-"+name+"-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	switch err := s.downloadTo(ctx, name, m, mb, tmp); {
	case errors.Is(err, errMissing):
		return append(problems, err.Error()), nil
	case err != nil:
		return nil, err
	}
	rep, err := verify.VerifyContext(ctx, tmp)
	if err != nil {
		return nil, err
	}
	return append(problems, rep.Problems()...), nil
}

// quarantine copies every object of the broken snapshot aside, under
// brokenPrefix, before the publish removes it: evidence is never deleted.
func (s *Store) quarantine(ctx context.Context, b brokenSnapshot) (publish.Quarantined, error) {
	aside := brokenPrefix + "/" + b.name + "-" + time.Now().UTC().Format("20060102T150405.000000000Z")
	for o, err := range s.b.List(ctx, b.name+"/", "") {
		if err != nil {
			return publish.Quarantined{}, fmt.Errorf("%s: list %s: %w", s, b.name, err)
		}
		if err := s.b.Copy(ctx, aside+"/"+strings.TrimPrefix(o.Key, b.name+"/"), o.Key); err != nil {
			return publish.Quarantined{}, fmt.Errorf("%s: copy %s aside: %w", s, o.Key, err)
		}
	}
	return publish.Quarantined{Name: b.name, Path: s.at(aside), Problems: b.problems}, nil
}
