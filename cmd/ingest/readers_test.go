package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// tamperedLatest publishes corpus/ocean into a publish folder, keeps a copy
// of it elsewhere (an honest OLD), and then puts into latest the
// chunks.parquet of a corpus with one word changed: a file that reads, with
// as many rows as the manifest counts, that is not the file the manifest
// describes.
func tamperedLatest(t *testing.T) (pub, old string) {
	t.Helper()
	root := t.TempDir()
	c := filepath.Join(root, "corpus")
	copyTree(t, "../../corpus/ocean", c)
	pub, old = filepath.Join(root, "pub"), filepath.Join(root, "old")
	for _, args := range [][]string{{"--publish", pub}, {"--out", old}} {
		if code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", c, "--quiet"}, args...)...); code != exitOK {
			t.Fatalf("index %v: exit %d: %s", args, code, stderr)
		}
	}
	doc := filepath.Join(c, "rip-currents.md")
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(doc, []byte(strings.Replace(string(b), "Polarised sunglasses", "Polarized sunglasses", 1)), 0o644)
	other := filepath.Join(root, "other")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", other, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	latest, err := publish.Latest(pub)
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := os.ReadFile(filepath.Join(other, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(latest, artifacts.ChunksFile), chunks, 0o644); err != nil {
		t.Fatal(err)
	}
	return pub, old
}

// TestReadersCheckSnapshot: the commands that read a snapshot check its
// files against its manifest first (sizes and hashes) and refuse, naming
// the snapshot and the file, one whose files are not what it says. Before,
// diff, search, inspect, thresholds and eval read a tampered latest as if
// it were the snapshot its manifest describes, exit 0.
func TestReadersCheckSnapshot(t *testing.T) {
	t.Parallel()
	pub, old := tamperedLatest(t)
	latest := filepath.Join(pub, publish.LatestLink)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"diff", []string{"diff", old, latest}, exitFailed},
		{"diff --exit-code", []string{"diff", "--exit-code", old, latest}, exitUsage}, // 2: could not be read, not "differs"
		{"search", []string{"search", "--snapshot", latest, "rip current"}, exitFailed},
		{"inspect", []string{"inspect", latest}, exitFailed},
		{"thresholds", []string{"thresholds", latest}, exitFailed},
		{"eval", []string{"eval", "--snapshot", latest, "--questions", "../../corpus/ocean.golden.json"}, exitFailed},
		{"eval --baseline", []string{"eval", "--snapshot", old, "--baseline", latest, "--questions", "../../corpus/ocean.golden.json"}, exitFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.want || !strings.Contains(stderr, "fails its manifest's checks") || !strings.Contains(stderr, "chunks.parquet") {
				t.Errorf("got exit %d, stderr %q; want exit %d naming the snapshot's failed checks", code, stderr, tt.want)
			}
		})
	}
	if code, stdout, stderr := runCLI(context.Background(), "", "diff", old, old); code != exitOK || !strings.Contains(stdout, "No changes") {
		t.Errorf("diff of an honest snapshot with itself: got exit %d, %s%s", code, stdout, stderr)
	}
}
