package place

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

func TestSnapshotURLs(t *testing.T) {
	split := []struct{ in, prefix, snap string }{
		{"s3://b/p/latest", "s3://b/p", "latest"},
		{"s3://b/p/latest?region=x", "s3://b/p?region=x", "latest"},
		{"s3://b/p?endpoint=http://h:9000&region=x/latest", "s3://b/p?endpoint=http://h:9000&region=x", "latest"},
		{"s3://b/p?region=x/20261201T020000Z-4c19108f1cdf", "s3://b/p?region=x", "20261201T020000Z-4c19108f1cdf"},
		{"file:///srv/k/20261201T020000Z-4c19108f1cdf", "file:///srv/k", "20261201T020000Z-4c19108f1cdf"},
	}
	for _, tt := range split {
		p, s, err := splitSnapshotURL(tt.in)
		if err != nil || p != tt.prefix || s != tt.snap {
			t.Errorf("split %q: got %q %q %v, want %q %q", tt.in, p, s, err, tt.prefix, tt.snap)
		}
	}
	join := []struct{ place, name, want string }{
		{"parts", "shard-0-of-2", filepath.Join("parts", "shard-0-of-2")},
		{"s3://b/parts?endpoint=http://h:9000", "shard-1-of-2", "s3://b/parts/shard-1-of-2?endpoint=http://h:9000"},
		{"s3://b", "shard-1-of-2", "s3://b/shard-1-of-2"},
	}
	for _, tt := range join {
		if got := Join(tt.place, tt.name); got != tt.want {
			t.Errorf("join %q %q: got %q, want %q", tt.place, tt.name, got, tt.want)
		}
	}
}

// TestTarget: one constructor builds every kind of target from what the
// command line says, a shard's part under its own shard-K-of-N in a place
// that holds parts only.
func TestTarget(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "user")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	part := shard.Shard{Index: 1, Count: 2}
	tests := []struct {
		name                 string
		spec                 Spec
		key, target, publish string
		refused              bool
	}{
		{"out", Spec{Out: filepath.Join(dir, "snap")}, "out", filepath.Join(dir, "snap"), "", false},
		{"publish folder", Spec{Publish: filepath.Join(dir, "pub")}, "publish", filepath.Join(dir, "pub"), filepath.Join(dir, "pub"), false},
		{"bucket", Spec{Publish: "mem://knowledge/ocean", Work: Work{Dir: filepath.Join(dir, "work")}}, "publish", "mem://knowledge/ocean", "mem://knowledge/ocean", false},
		{"a part at --out", Spec{Out: filepath.Join(dir, "parts"), Shard: part}, "out", filepath.Join(dir, "parts", "shard-1-of-2"), "", false},
		{"a part in a bucket", Spec{Publish: "mem://k/parts", Shard: part, Work: Work{Dir: filepath.Join(dir, "work")}}, "publish", "mem://k/parts/shard-1-of-2", "mem://k/parts/shard-1-of-2", false},
		{"a part among the user's files", Spec{Out: user, Shard: part}, "", "", "", true},
		{"the user's files, whole", Spec{Out: user}, "out", user, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, closeTarget, err := Target(context.Background(), tt.spec)
			defer closeTarget()
			if tt.refused {
				if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not only parts") {
					t.Errorf("got %v, want it refused: not only parts", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if target.Key() != tt.key || target.String() != tt.target || tt.spec.PublishPlace() != tt.publish {
				t.Errorf("got a %s target %s publishing at %q, want a %s target %s publishing at %q", target.Key(), target, tt.spec.PublishPlace(), tt.key, tt.target, tt.publish)
			}
		})
	}
	if _, _, err := Target(context.Background(), Spec{Publish: "mem://k/p"}); err == nil || !strings.Contains(err.Error(), "INGEST_WORK_DIR") {
		t.Errorf("a bucket without a work folder: got %v, want an error naming INGEST_WORK_DIR", err)
	}
}

// TestWork: a bucket's work folder is Dir as given, else one per URL
// (credentials removed before hashing) under the cache folder.
func TestWork(t *testing.T) {
	w := Work{Cache: "/cache"}
	a, _ := w.dir("s3://b/p?endpoint=http://user:secret@h:9000")
	b, _ := w.dir("s3://b/p?endpoint=http://user:other@h:9000")
	c, _ := w.dir("s3://b/q")
	if a != b || a == c || filepath.Dir(a) != "/cache/ingest" {
		t.Errorf("got %s, %s and %s, want one folder under /cache/ingest per URL whatever its credentials", a, b, c)
	}
	if d, _ := (Work{Dir: "/w", Cache: "/cache"}).dir("s3://b/p"); d != "/w" {
		t.Errorf("got %s, want INGEST_WORK_DIR as given", d)
	}
}

// TestManifest: a snapshot's manifest read where its argument names it; a
// folder that holds no snapshot is refused.
func TestManifest(t *testing.T) {
	dir := stagestest.WriteHand(t, stagestest.HandChunks("a.md", "prose: Rip currents pull swimmers away."))
	m, err := Manifest(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Embedder.Name == "" || m.Counts.Chunks != 1 {
		t.Errorf("got embedder %q and %d chunks, want the snapshot's (1 chunk)", m.Embedder.Name, m.Counts.Chunks)
	}
	if _, err := Manifest(context.Background(), t.TempDir()); err == nil {
		t.Error("got a manifest from an empty folder, want an error")
	}
}
