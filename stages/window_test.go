package stages

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
)

// TestOneWindow: every chat call of a run asks for the same context window
// (Ollama reloads the model when num_ctx changes), on every corpus tried:
// the shipped one and the OpenTelemetry docs, whose longest chunks (tables
// and code blocks over 10,000 characters) asked for twice the window.
func TestOneWindow(t *testing.T) {
	t.Parallel()
	// A chunk of 24,000 characters (one sentence, never cut) asked for
	// 16,384 beside the others' 8,192.
	big := "# Swell\nSource: https://example.org/s\n\n" + strings.Repeat("swell and surf and wind, ", 1000) + "all day.\n"
	corpora := map[string]string{"ocean": "../corpus/ocean", "ocean+long-chunk": copyCorpus(t, "../corpus/ocean", map[string]string{"big/table.md": big}),
		"otel-pt": otelPT, "otel-en": filepath.Join(filepath.Dir(otelPT), "en")}
	for name, dir := range corpora {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("%s is not here (%v): the real corpora are in ../shared beside the clone", dir, err)
			}
			if !strings.HasPrefix(name, "ocean") {
				if testing.Short() {
					t.Skip("a real corpus: a few seconds")
				}
				slowtest.Mark(t, "an OpenTelemetry corpus indexed against a model server: 10 to 60 s")
			}
			srv := modelfake.New(modelfake.Options{Dims: 64, ContextLength: 32768}) // a 7B model's window
			defer srv.Close()
			cfg := testConfig(dir, filepath.Join(t.TempDir(), "snap"), 0)
			if strings.HasPrefix(name, "otel") {
				cfg.SourceURLTemplate, cfg.Exclude = "https://opentelemetry.io/{path}/", []string{"**/_includes/**"}
			}
			cfg.Embed.Dims, cfg.LLMConcurrency = 64, 8
			h, _, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Addrs: map[string]string{"ollama": srv.URL}}))
			if err != nil {
				t.Fatal(err)
			}
			mustRun(t, cfg, Options{Headers: h})
			windows := map[int]int{}
			for _, l := range srv.Log(modelfake.OllamaChat) {
				windows[l.NumCtx]++
			}
			if len(windows) != 1 {
				t.Errorf("got calls asking for windows %v (window: calls), want one window", windows)
			}
		})
	}
}
