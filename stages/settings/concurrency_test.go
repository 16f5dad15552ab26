package settings

import (
	"testing"

	"github.com/ocean-safety/ingest/models"
)

// TestPerServer: a default is scaled to the servers of its backend (the
// addresses of the setting's kind, whichever kind it is), a set value is
// kept as it is (the default's value too); header calls left to their
// default (0) are learned per server.
func TestPerServer(t *testing.T) {
	three := "http://a:1,http://b:1,http://c:1"
	tests := []struct {
		name       string
		bc         models.BackendConfig
		set        []string
		llm, embed int
	}{
		{"offline", models.BackendConfig{LLM: "none", Embedder: "builtin", Addrs: map[string]string{"ollama": three}}, nil, 0, 2},
		{"three ollama servers", models.BackendConfig{LLM: "ollama:m", Embedder: "ollama:e", Addrs: map[string]string{"ollama": three}}, nil, 0, 6},
		{"three ollama servers for embeddings, one openai", models.BackendConfig{LLM: "openai:m", Embedder: "ollama:e", Addrs: map[string]string{"ollama": three}}, nil, 0, 6},
		{"three servers of a kind settings does not name", models.BackendConfig{LLM: "none", Embedder: "tei:e", Addrs: map[string]string{"tei": three}}, nil, 0, 6},
		{"set", models.BackendConfig{LLM: "ollama:m", Embedder: "ollama:e", Addrs: map[string]string{"ollama": three}}, []string{"llm_concurrency", "embed_concurrency"}, 0, 2},
		{"one set", models.BackendConfig{LLM: "ollama:m", Embedder: "ollama:e", Addrs: map[string]string{"ollama": three}}, []string{"embed_concurrency"}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.PerServer(tt.bc, func(key string) bool {
				for _, k := range tt.set {
					if k == key {
						return true
					}
				}
				return false
			})
			if cfg.LLMConcurrency != tt.llm || cfg.EmbedConcurrency != tt.embed {
				t.Errorf("got %d and %d calls in flight, want %d and %d", cfg.LLMConcurrency, cfg.EmbedConcurrency, tt.llm, tt.embed)
			}
		})
	}
}
