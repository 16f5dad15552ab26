package stages

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
)

// TestPlanEstimate: a plan's calls and prompt tokens, headers and
// embeddings, are within 10% of what the run then reports, counted by a
// server with a real BPE tokenizer (cl100k_base), on the shipped corpus
// and otel-pt.
func TestPlanEstimate(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ocean", "otel-pt"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := corpusDir(name)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("%s is not here (%v): the real corpora are in ../shared beside the clone", dir, err)
			}
			if name != "ocean" {
				if testing.Short() {
					t.Skip("a real corpus: a few seconds")
				}
				slowtest.Mark(t, "an OpenTelemetry corpus planned and indexed against a model server: about 20 s")
			}
			srv := modelfake.New(modelfake.Options{Dims: 64, BPE: true})
			defer srv.Close()
			cfg := testConfig(dir, filepath.Join(t.TempDir(), "snap"), 0)
			if name == "otel-pt" {
				cfg.SourceURLTemplate, cfg.Exclude = "https://opentelemetry.io/{path}/", []string{"**/_includes/**"}
			}
			cfg.Embed.Dims = 64
			h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
			if err != nil {
				t.Fatal(err)
			}
			p, err := Plan(context.Background(), cfg.Config, publish.OutTarget(cfg.Out, ""), Options{Headers: h, Embedder: e})
			if err != nil {
				t.Fatal(err)
			}
			res := mustRun(t, cfg, Options{Headers: h, Embedder: e})
			hs, es := res.Report.Models.Headers, res.Report.Models.Embedder
			for _, tc := range []struct {
				what      string
				plan, run int64
			}{
				{"header calls", int64(p.HeaderCost.Calls), hs.Calls},
				{"header prompt tokens", int64(p.HeaderCost.PromptTokens), hs.Usage.PromptTokens},
				{"embedding calls", int64(p.EmbedCost.Calls), es.Calls},
				{"embedding prompt tokens", int64(p.EmbedCost.PromptTokens), es.Usage.PromptTokens},
			} {
				t.Logf("%s: plan %d, run %d (%+.1f%%)", tc.what, tc.plan, tc.run, 100*(float64(tc.plan)/float64(tc.run)-1))
				if d := float64(tc.plan)/float64(tc.run) - 1; d < -0.1 || d > 0.1 || tc.run == 0 {
					t.Errorf("%s: plan %d, run %d, want within 10%%", tc.what, tc.plan, tc.run)
				}
			}
			if p.Tokenizer != "chars/4" || p.HeaderCost.CachedTokens <= 0 || p.HeaderCost.CachedTokens >= p.HeaderCost.PromptTokens || p.HeaderCost.AnswerTokens <= 0 {
				t.Errorf("got tokenizer %q and header cost %+v, want chars/4, some cached and answer tokens", p.Tokenizer, p.HeaderCost)
			}
		})
	}
}
