package stages

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
)

// TestPlanUnchanged: the plan of a corpus unchanged since the previous
// snapshot is the run's: it says so, counts the previous snapshot's
// documents and chunks, and no call. An edit to one file, or another
// header writer and embedder, and the plan counts the corpus again.
func TestPlanUnchanged(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	dir := copyCorpus(t, "../corpus/ocean", nil)
	cfg := testConfig(dir, filepath.Join(t.TempDir(), "snap"), 0)
	open := func(llm string) Options {
		t.Helper()
		h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{
			LLM: llm, Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
		if err != nil {
			t.Fatal(err)
		}
		return Options{Headers: h, Embedder: e}
	}
	res := mustRun(t, cfg, open("ollama:qwen2.5:7b"))
	plan := func(opt Options) (unchanged bool, calls, docs, chunks int) {
		t.Helper()
		before := srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed)
		p, err := Plan(context.Background(), cfg.Config, publish.OutTarget(cfg.Out, ""), opt)
		if err != nil {
			t.Fatal(err)
		}
		if n := srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed) - before; n != 0 {
			t.Errorf("the plan made %d model calls", n)
		}
		return p.Unchanged, p.HeaderCalls + p.EmbeddingCalls, p.Documents, p.Chunks
	}
	unchanged, calls, docs, chunks := plan(open("ollama:qwen2.5:7b"))
	if !unchanged || calls != 0 || docs != res.Manifest.Counts.Documents || chunks != res.Manifest.Counts.Chunks {
		t.Errorf("unchanged corpus: got unchanged %v, %d calls, %d documents, %d chunks; want true, 0, %d, %d",
			unchanged, calls, docs, chunks, res.Manifest.Counts.Documents, res.Manifest.Counts.Chunks)
	}
	if unchanged, _, _, _ := plan(Options{}); unchanged {
		t.Errorf("the offline header writer and embedder: got the plan of an unchanged run")
	}
	p := filepath.Join(dir, "rip-currents.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(b, "\nSwim parallel to the shore.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if unchanged, calls, _, _ := plan(open("ollama:qwen2.5:7b")); unchanged || calls == 0 {
		t.Errorf("one file edited: got unchanged %v and %d calls, want the corpus counted again, with calls", unchanged, calls)
	}
}
