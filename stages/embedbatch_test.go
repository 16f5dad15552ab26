package stages

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
)

// TestEmbedBatchesFill: embedding requests hold embed.batch_size texts
// from as many documents as it takes, in a first run and in an incremental
// one alike; only the last request of a run is partial. Before, a re-run
// after editing a few documents of the shipped corpus sent each edited
// document's new texts as a request of their own (1 to 2 texts each).
func TestEmbedBatchesFill(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		workers int
		copies  int              // of the shipped corpus, side by side: 4 are past a batch's rows
		edit    func(i int) bool // which documents, in path order, the re-run finds edited
		end     bool             // the edit is a sentence at the end (else one in every paragraph)
	}{
		{"shipped corpus, every sixth document, 1 worker", 1, 1, sixth, false},
		{"shipped corpus, every sixth document, 4 workers", 4, 1, sixth, false},
		{"shipped corpus, three documents, 4 workers", 4, 1, func(i int) bool { return i == 2 || i == 13 || i == 27 }, false},
		{"4 copies, every sixth document, 1 worker", 1, 4, sixth, false},
		{"4 copies, every sixth document, 4 workers", 4, 4, sixth, false},
		{"4 copies, every sixth document's end, 1 worker", 1, 4, sixth, true},
		{"4 copies, every sixth document's end, 4 workers", 4, 4, sixth, true},
		{"4 copies, every third document's end, 4 workers", 4, 4, func(i int) bool { return i%3 == 0 }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := copies(t, "../corpus/ocean", tt.copies)
			pub := filepath.Join(t.TempDir(), "pub")
			first := embedRequests(t, dir, pub, tt.workers)
			checkFull(t, "the first run", first, 10)
			editDocuments(t, dir, tt.edit, tt.end)
			again := embedRequests(t, dir, pub, tt.workers)
			checkFull(t, "the re-run", again, 10)
			texts := sum(again)
			if texts < 8 {
				t.Fatalf("the re-run embedded %d texts: the edit should leave at least 8 to send", texts)
			}
			t.Logf("first run: %d texts in %d requests (%.2f a request); re-run: %d texts in %d requests (%.2f a request)",
				sum(first), len(first), perRequest(first), texts, len(again), perRequest(again))
		})
	}
}

// checkFull fails unless every request but one holds batch texts (and
// that one no more): so texts per request are at least 8 wherever 8 were
// there to send. Requests in flight together reach the server in either
// order, so the partial one (the end of input) need not arrive last.
func checkFull(t *testing.T, what string, sizes []int, batch int) {
	t.Helper()
	partial := 0
	for _, n := range sizes {
		if n > batch {
			t.Errorf("%s: a request held %d texts, over the batch of %d (requests %v)", what, n, batch, sizes)
		}
		if n < batch {
			partial++
		}
	}
	if partial > 1 {
		t.Errorf("%s: %d requests held fewer than %d texts, want at most one (requests %v)", what, partial, batch, sizes)
	}
}

// copies lays n copies of the corpus src side by side in a new folder,
// each paragraph of copy i ending in its own sentence, so no two copies
// share a chunk.
func copies(t *testing.T, src string, n int) string {
	t.Helper()
	if n == 1 {
		return copyCorpus(t, src, nil)
	}
	dir := t.TempDir()
	for i := range n {
		one := copyCorpus(t, src, nil)
		rewrite(t, one, func(int) bool { return true }, fmt.Sprintf(" This is beach number %d.", i+1), "")
		if err := os.Rename(one, filepath.Join(dir, fmt.Sprintf("copy%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// embedRequests publishes the corpus at dir into pub against a fake Ollama
// and returns the texts of each embedding request the run sent.
func embedRequests(t *testing.T, dir, pub string, workers int) []int {
	t.Helper()
	srv := modelfake.New(modelfake.Options{Dims: 64})
	defer srv.Close()
	cfg := testConfig(dir, "", workers)
	cfg.Embed.Dims = 64
	h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg.Config, publish.PublishTarget(pub, 5, ""), Options{Headers: h, Embedder: e}); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, body := range srv.Requests(modelfake.OllamaEmbed) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(req.Input))
	}
	return sizes
}

func sixth(i int) bool { return i%6 == 0 }

// editDocuments edits the Markdown documents under dir that edit picks,
// numbered in path order: a sentence added at the end (a chunk or two
// needs a vector again) or to every paragraph (most of them do); the
// others' vectors are reused.
func editDocuments(t *testing.T, dir string, edit func(i int) bool, end bool) {
	t.Helper()
	if end {
		rewrite(t, dir, edit, "", "\nCheck with the lifeguard first.\n")
		return
	}
	rewrite(t, dir, edit, " Check with the lifeguard first.", "")
}

// rewrite adds sentence to every paragraph, and end at the end, of the
// Markdown documents under dir that pick picks, numbered in path order.
func rewrite(t *testing.T, dir string, pick func(i int) bool, sentence, end string) {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	for i, p := range paths {
		if !pick(i) {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.ReplaceAll(string(b), ".\n\n", "."+sentence+"\n\n") + end
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func sum(sizes []int) int {
	n := 0
	for _, s := range sizes {
		n += s
	}
	return n
}

func perRequest(sizes []int) float64 {
	if len(sizes) == 0 {
		return 0
	}
	return float64(sum(sizes)) / float64(len(sizes))
}
