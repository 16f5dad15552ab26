package bucket

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// List lists the prefix for ingest list: its snapshots with what their
// manifests say, which one latest.json names, and the parts of sharded runs
// under it (shard-K-of-N prefixes, here or one prefix down: a parts root of
// run prefixes), each with its latest snapshot.
func (s *Store) List(ctx context.Context) (*publish.Listing, error) {
	l := &publish.Listing{Place: s.name}
	if latest, err := s.ReadLatest(ctx); err != nil {
		return nil, err
	} else if latest != nil {
		l.Latest = latest.Name
	}
	names, err := s.Snapshots(ctx)
	if err != nil {
		return nil, err
	}
	slices.Reverse(names) // newest first
	for _, n := range names {
		snap, err := s.describeSnapshot(ctx, s.b, n, s.at(n))
		if err != nil {
			return nil, err
		}
		snap.Latest = n == l.Latest
		l.Snapshots = append(l.Snapshots, snap)
	}
	top, err := s.dirs(ctx, s.b, "")
	if err != nil {
		return nil, err
	}
	for _, d := range top {
		switch {
		case publish.PartName.MatchString(d):
			l.Parts = append(l.Parts, s.part(ctx, d, ""))
		case strings.HasPrefix(d, ".") || snapshotName.MatchString(d):
		default:
			sub, err := s.dirs(ctx, s.b, d+"/")
			if err != nil {
				return nil, err
			}
			for _, p := range sub {
				if publish.PartName.MatchString(p) {
					l.Parts = append(l.Parts, s.part(ctx, d+"/"+p, d))
				}
			}
		}
	}
	// Two snapshots of one second are in no order an object store keeps:
	// the one latest names goes first.
	slices.SortStableFunc(l.Snapshots, func(a, b publish.ListedSnapshot) int {
		if a.Name[:16] != b.Name[:16] || a.Latest == b.Latest {
			return strings.Compare(b.Name[:16], a.Name[:16])
		}
		if a.Latest {
			return -1
		}
		return 1
	})
	publish.SortParts(l)
	return l, nil
}

// dirs are the prefix's child "folders", one level down.
func (s *Store) dirs(ctx context.Context, b Objects, prefix string) ([]string, error) {
	var out []string
	for o, err := range b.List(ctx, prefix, "/") {
		if err != nil {
			return nil, fmt.Errorf("%s: list: %w", s, err)
		}
		if o.IsDir {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(o.Key, prefix), "/"))
		}
	}
	return out, nil
}

func (s *Store) describeSnapshot(ctx context.Context, b Objects, key, path string) (publish.ListedSnapshot, error) {
	mb, err := readAll(ctx, b, key+"/"+artifacts.ManifestFile)
	if err != nil {
		return publish.ListedSnapshot{}, fmt.Errorf("%s: read %s/%s: %w", s, key, artifacts.ManifestFile, err)
	}
	var m artifacts.Manifest
	if err := json.Unmarshal(mb, &m); err != nil {
		return publish.ListedSnapshot{}, fmt.Errorf("%s: %s/%s: %w", s, key, artifacts.ManifestFile, err)
	}
	name := key[strings.LastIndexByte(key, '/')+1:]
	return publish.DescribeSnapshot(name, path, m, int64(len(mb))), nil
}

// part describes the part at key (its latest snapshot, if it has one).
func (s *Store) part(ctx context.Context, key, run string) publish.ListedPart {
	m := publish.PartName.FindStringSubmatch(key[strings.LastIndexByte(key, '/')+1:])
	p := publish.ListedPart{Path: s.at(key), Run: run, Shard: m[1] + "/" + m[2]}
	b, err := readAll(ctx, s.b, key+"/"+LatestFile)
	if err != nil {
		return p // a part whose run never published: listed as it is
	}
	var latest Latest
	if json.Unmarshal(b, &latest) != nil || !snapshotName.MatchString(latest.Name) {
		return p
	}
	if snap, err := s.describeSnapshot(ctx, s.b, key+"/"+latest.Name, s.at(key+"/"+latest.Name)); err == nil {
		snap.Latest = true
		p.Snapshot = &snap
	}
	return p
}
