package stages

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/schema"
)

// BenchmarkSlowEndpoint runs the whole pipeline over the ocean corpus
// against one fake server, then against it and a healthy server fifty
// times slower (--ollama-host fast,slow, twice the calls in flight as the
// CLI gives two servers), and reports the second run's wall time over the
// first's (with/without: the bound is 1.5; it was 37 with every
// server taking its share) and over the fast server's alone with as many
// calls in flight (with/without-same-slots: what the slow server itself
// costs). slow-calls is what the slow server was sent, hedges what the
// fast one answered for its trials.
func BenchmarkSlowEndpoint(b *testing.B) {
	const fastLatency, slowLatency = 20 * time.Millisecond, time.Second // 50×
	fast := modelfake.New(modelfake.Options{Dims: 1024, Latency: fastLatency})
	defer fast.Close()
	slow := modelfake.New(modelfake.Options{Dims: 1024, Latency: slowLatency})
	defer slow.Close()
	run := func(hosts []string, inFlight int) (time.Duration, models.HeaderWriter) {
		cfg := testConfig("../corpus/ocean", filepath.Join(b.TempDir(), "snap"), 0)
		cfg.LLMConcurrency, cfg.EmbedConcurrency = inFlight, inFlight
		h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config,
			models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": strings.Join(hosts, ",")}}))
		if err != nil {
			b.Fatal(err)
		}
		t := time.Now()
		if _, err := runOut(context.Background(), cfg, Options{Headers: h, Embedder: e}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t), h
	}
	var alone, alone4, both time.Duration
	var slowCalls, hedges int
	for b.Loop() {
		alone, _ = run([]string{fast.URL}, 2)
		alone4, _ = run([]string{fast.URL}, 4)
		slow0 := slow.Calls(modelfake.OllamaChat) + slow.Calls(modelfake.OllamaEmbed)
		var h models.HeaderWriter
		both, h = run([]string{fast.URL, slow.URL}, 4)
		slowCalls = slow.Calls(modelfake.OllamaChat) + slow.Calls(modelfake.OllamaEmbed) - slow0
		if s, ok := h.(interface{ Stats() schema.ModelStats }); ok {
			hedges = 0
			for _, ep := range s.Stats().Endpoints {
				hedges += ep.Hedges
			}
		}
	}
	b.ReportMetric(alone.Seconds(), "s-fast-alone")
	b.ReportMetric(both.Seconds(), "s-with-slow")
	b.ReportMetric(both.Seconds()/alone.Seconds(), "with/without")
	b.ReportMetric(both.Seconds()/alone4.Seconds(), "with/without-same-slots")
	b.ReportMetric(float64(slowCalls), "slow-calls")
	b.ReportMetric(float64(hedges), "hedges")
}
