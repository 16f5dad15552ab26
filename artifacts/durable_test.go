package artifacts_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// recordingFile is a file that records the calls made on it.
type recordingFile struct {
	*os.File
	calls *[]string
}

func (f recordingFile) Sync() error {
	*f.calls = append(*f.calls, "sync")
	return f.File.Sync()
}

func (f recordingFile) Close() error {
	*f.calls = append(*f.calls, "close")
	return f.File.Close()
}

// TestChunksFileSynced: chunks.parquet is synced, once, before it is
// closed (a closed file can no longer be synced).
func TestChunksFileSynced(t *testing.T) {
	path := filepath.Join(t.TempDir(), artifacts.ChunksFile)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	w, err := artifacts.NewChunkWriterTo(recordingFile{f, &calls}, path, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range stagestest.HandChunks("d.md", "A/x", "A/y") {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"sync", "close"}; !slices.Equal(calls, want) {
		t.Errorf("got calls %v, want %v", calls, want)
	}
}

// failingSync is a disk that cannot make a file durable.
type failingSync struct{ *os.File }

var errSync = errors.New("injected: sync failed")

func (failingSync) Sync() error { return errSync }

// TestChunksFileSyncFails: a file that cannot be synced fails the close,
// so the run publishes nothing.
func TestChunksFileSyncFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), artifacts.ChunksFile)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := artifacts.NewChunkWriterTo(failingSync{f}, path, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); !errors.Is(err, errSync) {
		t.Errorf("got %v, want the sync error", err)
	}
}
