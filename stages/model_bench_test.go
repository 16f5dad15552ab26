package stages

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
)

// BenchmarkModelPipeline runs the whole pipeline against the fake Ollama
// server at a fixed latency per call and reports the wall time against the
// ideal, Σ latency / concurrency of the busier backend: 1.00 means the runner
// never let the server's request slots go idle.
func BenchmarkModelPipeline(b *testing.B) {
	const latency = 200 * time.Millisecond // a small model writing one sentence on a GPU
	for _, conc := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			dir, _ := benchCorpus(b, 200<<10)
			srv := modelfake.New(modelfake.Options{Dims: 1024, Latency: latency})
			defer srv.Close()
			var ratio float64
			for b.Loop() {
				cfg := testConfig(dir, filepath.Join(b.TempDir(), "snap"), 0)
				cfg.LLMConcurrency, cfg.EmbedConcurrency = conc, conc
				h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
				if err != nil {
					b.Fatal(err)
				}
				chats0, embeds0 := srv.Calls(modelfake.OllamaChat), srv.Calls(modelfake.OllamaEmbed)
				t := time.Now()
				if _, err := runOut(context.Background(), cfg, Options{Headers: h, Embedder: e}); err != nil {
					b.Fatal(err)
				}
				wall := time.Since(t)
				chats, embeds := srv.Calls(modelfake.OllamaChat)-chats0, srv.Calls(modelfake.OllamaEmbed)-embeds0
				ideal := time.Duration(max(chats, embeds)) * latency / time.Duration(conc)
				ratio = wall.Seconds() / ideal.Seconds()
				b.ReportMetric(float64(chats), "chat-calls")
				b.ReportMetric(float64(embeds), "embed-calls")
			}
			b.ReportMetric(ratio, "wall/ideal")
		})
	}
}
