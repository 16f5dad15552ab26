package stages

import (
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/internal/golden"
)

// TestShippedThresholdsGolden pins thresholds.md of the shipped corpus: the
// proposal reviewers read.
func TestShippedThresholdsGolden(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "snap")
	res := mustRun(t, testConfig("../corpus/ocean", out, 4), Options{})
	if res.Manifest.Files[artifacts.ThresholdsFile].Rows == 0 {
		t.Fatalf("got no thresholds from the shipped corpus")
	}
	golden.Check(t, "../testdata/golden/ocean-thresholds.md", readFile(t, filepath.Join(out, artifacts.ThresholdsFile)))

	// The same thresholds are in the Parquet column, on their chunks.
	chunks, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range chunks {
		for _, th := range c.Thresholds {
			if th.DocPath != c.DocPath || th.ContentHash != c.ContentHash || th.Line < c.LineStart || th.Line > c.LineEnd {
				t.Errorf("threshold %+v not tied to its chunk %s lines %d-%d", th, c.Key(), c.LineStart, c.LineEnd)
			}
			n++
		}
	}
	if n != res.Manifest.Files[artifacts.ThresholdsFile].Rows {
		t.Errorf("got %d thresholds in chunks.parquet, want %d as in thresholds.md", n, res.Manifest.Files[artifacts.ThresholdsFile].Rows)
	}
}
