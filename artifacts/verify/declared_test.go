package verify_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/stages"
)

// TestVerifyBySizeFirst (issue 31, item 8): a file whose size is not the
// manifest's is a failed check found by its size, never read: a
// chunks.parquet made a sparse 100 GB file fails verify and VerifyFiles at
// once, and no reader opens it (artifacts.OpenChunksAs refuses a file a
// byte longer or shorter than declared). Before, both hashed all 100 GB.
func TestVerifyBySizeFirst(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	dir := copySnapshot(t, good)
	path := filepath.Join(dir, artifacts.ChunksFile)
	if err := os.Truncate(path, 100<<30); err != nil {
		t.Skip("no sparse file here:", err)
	}
	start := time.Now()
	_, err := verify.VerifyFiles(dir)
	var broken *verify.BrokenError
	if !errors.As(err, &broken) || !strings.Contains(err.Error(), "chunks.parquet: 107374182400 bytes; manifest says") {
		t.Errorf("VerifyFiles: got %v, want the file refused by its size", err)
	}
	rep, err := verify.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Failed(); !slices.Equal(got, []string{verify.CheckFiles, verify.CheckParquet}) {
		t.Errorf("Verify: got failed %v, want files and parquet; problems:\n%s", got, strings.Join(rep.Problems(), "\n"))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s: the file was read", took)
	}

	m, err := artifacts.ReadManifest(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, delta := range []int64{1, -1} {
		dir := copySnapshot(t, good)
		path := filepath.Join(dir, artifacts.ChunksFile)
		os.Truncate(path, m.Files[artifacts.ChunksFile].Bytes+delta)
		var size *artifacts.SizeError
		if _, err := artifacts.OpenChunksAs(dir, m); !errors.As(err, &size) || size.Got != size.Want+delta {
			t.Errorf("%+d bytes: got %v, want a *SizeError", delta, err)
		}
	}
	cf, err := artifacts.OpenChunksAs(good, m)
	if err != nil {
		t.Fatalf("the good snapshot: %v", err)
	}
	cf.Close()
}
