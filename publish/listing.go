package publish

import (
	"cmp"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/ocean-safety/ingest/artifacts"
)

// Listing is what a publish place holds, for ingest list: its snapshots,
// newest first, which one latest points at, and the parts of sharded runs
// left there (a merged run's are removed with merge --remove-parts; a
// failed run's stay until someone looks).
type Listing struct {
	Place     string           `json:"place"`
	Snapshots []ListedSnapshot `json:"snapshots"`
	Latest    string           `json:"latest,omitempty"` // the name latest points at
	Parts     []ListedPart     `json:"parts,omitempty"`
}

// ListedSnapshot is one snapshot as its manifest describes it.
type ListedSnapshot struct {
	Name         string `json:"name"`
	Path         string `json:"path"`
	CreatedAt    string `json:"created_at"`
	Documents    int    `json:"documents"`
	Chunks       int    `json:"chunks"`
	Embedder     string `json:"embedder"`
	Dims         int    `json:"dims"`
	HeaderWriter string `json:"header_writer"`
	Bytes        int64  `json:"bytes"` // the files the manifest lists, and itself
	Latest       bool   `json:"latest"`
	// Shard is "K/N" for a part snapshot.
	Shard string `json:"shard,omitempty"`
	Run   string `json:"run,omitempty"`
}

// ListedPart is a shard-K-of-N place under the listed one: a sharded run's
// part, with its latest snapshot if it has one.
type ListedPart struct {
	Path     string          `json:"path"`
	Run      string          `json:"run,omitempty"` // the folder the parts are under
	Shard    string          `json:"shard"`         // "K/N" from the name
	Snapshot *ListedSnapshot `json:"snapshot,omitempty"`
}

// PartName matches a part's place: shard-K-of-N.
var PartName = regexp.MustCompile(`^shard-(\d+)-of-(\d+)$`)

// DescribeSnapshot is a snapshot's line in a listing, from its manifest.
func DescribeSnapshot(name, path string, m artifacts.Manifest, manifestBytes int64) ListedSnapshot {
	s := ListedSnapshot{Name: name, Path: path, CreatedAt: m.CreatedAt, Documents: m.Counts.Documents, Chunks: m.Counts.Chunks,
		Embedder: m.Embedder.Name, Dims: m.Embedder.Dims, HeaderWriter: m.HeaderWriter, Bytes: manifestBytes}
	for _, f := range m.Files {
		s.Bytes += f.Bytes
	}
	if m.Shard != nil {
		s.Shard = shardString(m.Shard.Index, m.Shard.Count)
		s.Run = m.Shard.Run
	}
	return s
}

func shardString(k, n int) string { return itoa(k) + "/" + itoa(n) }

func itoa(n int) string { return strconv.Itoa(n) }

// SortParts puts the parts in order of run, then path.
func SortParts(l *Listing) {
	slices.SortStableFunc(l.Parts, func(a, b ListedPart) int { return cmp.Or(cmp.Compare(a.Run, b.Run), cmp.Compare(a.Path, b.Path)) })
}

// List lists a local place: a publish folder (its snapshots and latest), a
// snapshot folder (itself), or a folder of parts (its shard-K-of-N
// folders, and those one folder down: a parts root of run folders).
func List(dir string) (*Listing, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, &os.PathError{Op: "list", Path: dir, Err: os.ErrInvalid}
	}
	l := &Listing{Place: dir}
	if s, ok := localSnapshot(dir); ok { // an --out snapshot
		s.Latest = true
		l.Snapshots, l.Latest = []ListedSnapshot{s}, s.Name
		return l, nil
	}
	if latest, err := Latest(dir); err == nil {
		l.Latest = filepath.Base(latest)
	}
	snaps, err := listSnapshots(dir) // newest first, as prune orders them
	if err != nil {
		return nil, err
	}
	for _, ls := range snaps {
		if s, ok := localSnapshot(filepath.Join(dir, ls.name)); ok {
			s.Latest = ls.name == l.Latest
			l.Snapshots = append(l.Snapshots, s)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		switch {
		case PartName.MatchString(e.Name()):
			l.Parts = append(l.Parts, localPart(p, ""))
		case checkSnapshotName(e.Name()) == nil && hasManifest(p):
		case checkSnapshotName(e.Name()) == nil: // a run's folder of parts?
			sub, _ := os.ReadDir(p)
			for _, se := range sub {
				if se.IsDir() && PartName.MatchString(se.Name()) {
					l.Parts = append(l.Parts, localPart(filepath.Join(p, se.Name()), e.Name()))
				}
			}
		}
	}
	SortParts(l)
	return l, nil
}

func localSnapshot(dir string) (ListedSnapshot, bool) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return ListedSnapshot{}, false
	}
	var size int64
	if info, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile)); err == nil {
		size = info.Size()
	}
	name := filepath.Base(dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		name = filepath.Base(real) // latest: the snapshot it points at
	}
	return DescribeSnapshot(name, dir, m, size), true
}

func localPart(dir, run string) ListedPart {
	m := PartName.FindStringSubmatch(filepath.Base(dir))
	p := ListedPart{Path: dir, Run: run, Shard: m[1] + "/" + m[2]}
	if s, ok := localSnapshot(dir); ok { // an --out part
		p.Snapshot = &s
	} else if latest, err := Latest(dir); err == nil {
		if s, ok := localSnapshot(latest); ok {
			p.Snapshot = &s
		}
	}
	return p
}
