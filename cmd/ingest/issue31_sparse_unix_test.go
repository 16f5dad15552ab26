//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestSparseChunksNotRead (issue 31, item 8): a chunks.parquet replaced by
// a sparse 100 GB file is refused by its size, at once, by every command
// that reads a snapshot: no reader reads a file larger than its manifest
// declares. Before, verify, inspect, thresholds, search, diff and --prev
// read it whole (hashing it) for minutes (4 GB took 12.9 s); sync and embed
// too. A run given it as --prev warns and builds without it.
func TestSparseChunksNotRead(t *testing.T) {
	root := t.TempDir()
	snap, honest := filepath.Join(root, "snap"), filepath.Join(root, "honest")
	for _, out := range []string{snap, honest} {
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", out, "--quiet"); code != exitOK {
			t.Fatalf("index: exit %d: %s", code, stderr)
		}
	}
	if err := os.Truncate(filepath.Join(snap, artifacts.ChunksFile), 100<<30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	tests := []struct {
		args []string
		want int
		text string
	}{
		{[]string{"verify", snap}, exitFailed, "chunks.parquet: 107374182400 bytes; manifest says"},
		{[]string{"inspect", snap}, exitFailed, "chunks.parquet"},
		{[]string{"thresholds", snap}, exitFailed, "chunks.parquet"},
		{[]string{"search", "--snapshot", snap, "rip current"}, exitFailed, "chunks.parquet"},
		{[]string{"diff", honest, snap}, exitFailed, "chunks.parquet"},
		{[]string{"eval", "--snapshot", snap, "--questions", "../../corpus/ocean.golden.json"}, exitFailed, "chunks.parquet"},
		{[]string{"embed", "--snapshot", snap, "rip current"}, exitFailed, "chunks.parquet"},
		{[]string{"sync", "--snapshot", snap, "--to", "postgres://ingest:pw@127.0.0.1:1/kb", "--tenant", "8a1f6c1e-0f4e-4d55-9d8e-2f1b3c4d5e6f", "--plan"}, exitFailed, "does not verify (files"},
		{[]string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(root, "next"), "--prev", snap}, exitOK, "previous-ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			start := time.Now()
			code, stdout, stderr := runWithin(t, time.Minute, tt.args...)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s, want the file refused by its size at once", took)
			}
			if code != tt.want || !strings.Contains(stdout+stderr, tt.text) {
				t.Errorf("got exit %d, %s%s; want exit %d naming %q", code, stdout, stderr, tt.want, tt.text)
			}
		})
	}
}
