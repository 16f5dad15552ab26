package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/publish"
)

// TestListCommand: ingest list shows a publish folder's and a bucket's
// snapshots newest first with their counts, models and sizes, marks
// latest, and names the parts a sharded run left behind.
func TestListCommand(t *testing.T) {
	opts := fakeBucket(t)
	corpusDir := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	pub := filepath.Join(t.TempDir(), "pub")
	bucketURL := "s3://knowledge/snapshots" + opts
	var names []string
	for night := range 2 {
		if night == 1 { // an edit: a second snapshot
			f := filepath.Join(corpusDir, "waves.md")
			b, _ := os.ReadFile(f)
			os.WriteFile(f, append(b, []byte("\nA second night's sentence about waves.\n")...), 0o644)
		}
		for _, target := range []string{pub, bucketURL} {
			t.Setenv("INGEST_WORK_DIR", t.TempDir())
			code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--publish", target, "--json")
			if code != exitOK {
				t.Fatalf("night %d, %s: exit %d: %s", night, target, code, stderr)
			}
			var s runSummary
			json.Unmarshal([]byte(stdout), &s)
			if target == pub {
				names = append(names, s.Snapshot.Name)
			}
		}
	}
	// A sharded run whose merge never ran: its parts are left.
	for k := range 2 {
		for _, parts := range []string{filepath.Join(t.TempDir(), "parts", "r1"), "s3://knowledge/parts/r1" + opts} {
			if strings.HasPrefix(parts, "/") {
				parts = filepath.Join(filepath.Dir(pub), "parts", "r1")
			}
			t.Setenv("INGEST_WORK_DIR", t.TempDir())
			if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--shard", fmt.Sprintf("%d/2", k), "--run-id", "r1", "--publish", parts, "--quiet"); code != exitOK {
				t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
			}
		}
	}
	for _, c := range []struct {
		name, place string
		snapshots   int
		parts       int
	}{
		{"a publish folder", pub, 2, 0},
		{"a bucket prefix", bucketURL, 2, 0},
		{"a parts folder", filepath.Join(filepath.Dir(pub), "parts"), 0, 2},
		{"a bucket's parts", "s3://knowledge/parts" + opts, 0, 2},
		{"a snapshot", filepath.Join(pub, "latest"), 1, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", "list", "--json", c.place)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var l publish.Listing
			if err := json.Unmarshal([]byte(stdout), &l); err != nil {
				t.Fatal(err)
			}
			if len(l.Snapshots) != c.snapshots || len(l.Parts) != c.parts {
				t.Fatalf("got %d snapshots and %d parts, want %d and %d:\n%s", len(l.Snapshots), len(l.Parts), c.snapshots, c.parts, stdout)
			}
			for i, s := range l.Snapshots {
				if s.Documents != 4 || s.Chunks == 0 || s.Embedder != "builtin-hash-v1" || s.Bytes < 1000 || s.CreatedAt == "" {
					t.Errorf("snapshot %d: got %+v, want its manifest's counts, embedder and size", i, s)
				}
				if s.Latest != (i == 0) {
					t.Errorf("snapshot %d (%s): latest %v, want only the newest, first", i, s.Name, s.Latest)
				}
			}
			if c.place == pub && (l.Latest != names[1] || l.Snapshots[0].Name != names[1] || l.Snapshots[1].Name != names[0]) {
				t.Errorf("got latest %s and %s, %s; want %s newest first", l.Latest, l.Snapshots[0].Name, l.Snapshots[1].Name, names[1])
			}
			for _, p := range l.Parts {
				if p.Run != "r1" || p.Snapshot == nil || p.Snapshot.Shard != p.Shard || p.Snapshot.Run != "r1" {
					t.Errorf("part %+v (%+v), want run r1's shard with its snapshot", p, p.Snapshot)
				}
			}
			if strings.Contains(stdout, "PLANTED") {
				t.Errorf("a secret in the listing:\n%s", stdout)
			}
			code, text, _ := runCLI(context.Background(), "", "list", c.place)
			if code != exitOK || (c.snapshots > 0 && !strings.Contains(text, "latest →")) || (c.parts > 0 && !strings.Contains(text, "shard 1/2")) {
				t.Errorf("the listing a person reads: exit %d:\n%s", code, text)
			}
		})
	}
	if code, _, stderr := runCLI(context.Background(), "", "list", filepath.Join(pub, "nope")); code != exitUsage || !strings.Contains(stderr, "nope") {
		t.Errorf("a folder that is not there: exit %d, %q; want 2 naming it", code, stderr)
	}
}
