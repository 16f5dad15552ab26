package backends

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/ollama"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestOpenBackendsChecks runs the start-up checks: each failure is one line
// that names what to change, and wraps ErrBackendSetup.
func TestOpenBackendsChecks(t *testing.T) {
	tests := []struct {
		name string
		opt  modelfake.Options
		cfg  func(url string) models.BackendConfig
		want []string // in the error, all of them
	}{
		{
			name: "ollama unreachable",
			cfg: func(string) models.BackendConfig {
				return models.BackendConfig{LLM: "ollama:qwen2.5:7b", Addrs: map[string]string{"ollama": "http://127.0.0.1:1"}}
			},
			want: []string{"llm: ollama:qwen2.5:7b", "unreachable", "ollama serve", "ollama_host (OLLAMA_HOST)"},
		},
		{
			name: "openai unreachable",
			cfg: func(string) models.BackendConfig {
				return models.BackendConfig{Embedder: "openai:e", Addrs: map[string]string{"openai": "http://127.0.0.1:1"}}
			},
			want: []string{"embedder: openai:e", "unreachable", "openai_base_url (OPENAI_BASE_URL)"},
		},
		{
			name: "openai without a base URL",
			cfg:  func(string) models.BackendConfig { return models.BackendConfig{LLM: "openai:m"} },
			want: []string{"llm: openai:m", "openai_base_url (OPENAI_BASE_URL)"},
		},
		{
			name: "ollama model missing",
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{Embedder: "ollama:nomic-embed-text", Addrs: map[string]string{"ollama": u}}
			},
			want: []string{"embedder: ollama:nomic-embed-text", `no model "nomic-embed-text"`, "ollama pull nomic-embed-text"},
		},
		{
			name: "openai model missing",
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{LLM: "openai:gpt-x", Addrs: map[string]string{"openai": u + "/v1"}}
			},
			want: []string{"llm: openai:gpt-x", `no model "gpt-x"`},
		},
		{
			name: "dims above max",
			opt:  modelfake.Options{Dims: 2048},
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": u}}
			},
			want: []string{"2048 dimensions", "embed.max_dims: 1024", "smaller embedder model"},
		},
		{
			name: "probed dims above max",
			opt:  modelfake.Options{Dims: 2048, NoModelInfo: true},
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{Embedder: "openai:bge-m3", Addrs: map[string]string{"openai": u + "/v1"}}
			},
			want: []string{"2048 dimensions", "embed.max_dims: 1024"},
		},

		{
			name: "unknown backend",
			cfg:  func(string) models.BackendConfig { return models.BackendConfig{LLM: "gpt-4"} },
			want: []string{`llm: "gpt-4"`, "none, ollama:MODEL or openai:MODEL"},
		},
		{
			name: "tei unreachable",
			cfg: func(string) models.BackendConfig {
				return models.BackendConfig{Embedder: "tei:bge-m3", Addrs: map[string]string{"tei": "http://127.0.0.1:1"}}
			},
			want: []string{"embedder: tei:bge-m3", "unreachable", "tei_url (INGEST_TEI_URL)"},
		},
		{
			name: "tei without an address",
			cfg:  func(string) models.BackendConfig { return models.BackendConfig{Embedder: "tei:bge-m3"} },
			want: []string{"embedder: tei:bge-m3", "tei_url (INGEST_TEI_URL)"},
		},
		{
			name: "tei model missing",
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{Embedder: "tei:nomic-embed-text", Addrs: map[string]string{"tei": u}}
			},
			want: []string{"embedder: tei:nomic-embed-text", `no model "nomic-embed-text"`, `it serves "bge-m3"`},
		},
		{
			name: "tei writes no headers",
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{LLM: "tei:bge-m3", Addrs: map[string]string{"tei": u}}
			},
			want: []string{`llm: "tei:bge-m3"`, "tei serves no chat", "want none, ollama:MODEL or openai:MODEL"},
		},
		{
			name: "API key refused",
			opt:  modelfake.Options{APIKey: "other-key"},
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{LLM: "openai:qwen2.5:7b", Addrs: map[string]string{"openai": u + "/v1"}, OpenAIKeyEnv: "INGEST_TEST_KEY", OpenAIKey: "right-key"}
			},
			want: []string{"refused the API key in INGEST_TEST_KEY (401)"},
		},
		{
			name: "API key variable empty",
			cfg: func(u string) models.BackendConfig {
				return models.BackendConfig{LLM: "openai:qwen2.5:7b", Addrs: map[string]string{"openai": u + "/v1"}, OpenAIKeyEnv: "INGEST_EMPTY_KEY"}
			},
			want: []string{"INGEST_EMPTY_KEY is empty or unset"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Dims = max(tc.opt.Dims, testDims)
			srv := modelfake.New(tc.opt)
			defer srv.Close()
			cfg := tc.cfg(srv.URL)
			cfg.Retry = fastRetry
			start := time.Now()
			_, _, err := Open(context.Background(), cfg)
			if err == nil {
				t.Fatalf("got no error, want one containing %q", tc.want)
			}
			if !errors.Is(err, models.ErrBackendSetup) {
				t.Errorf("got %v, want it to wrap ErrBackendSetup", err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("got %q, want it to contain %q", msg, w)
				}
			}
			if strings.Contains(msg, "\n") || strings.Contains(msg, "right-key") {
				t.Errorf("got %q, want one line without the API key", msg)
			}
			if d := time.Since(start); d > slowBound {
				t.Errorf("took %s, want a start-up check to fail fast", d)
			}
		})
	}
}

// TestOpenBackendsNames checks the names the manifest and cache keys use:
// a digest (a tag can move), and the prompt version for headers.
func TestOpenBackendsNames(t *testing.T) {
	short := func(m string) string { return "sha256:" + modelfake.Digest(m)[:12] }
	tests := []struct {
		kind                  backendKind
		wantHeader, wantEmbed string // prefixes for openai, whose digest is a hash of its model entry
	}{
		{backendKinds[0], "ollama:qwen2.5:7b@" + short("qwen2.5:7b") + "+" + prompt.PromptVersion, "ollama:bge-m3@" + short("bge-m3")},
		{backendKinds[1], "openai:qwen2.5:7b@entry-sha256:", "openai:bge-m3@entry-sha256:"},
	}
	for _, tc := range tests {
		t.Run(tc.kind.name, func(t *testing.T) {
			_, h, e := openFakeBackends(t, tc.kind, modelfake.Options{}, nil)
			if tc.kind.name == "ollama" && (h.Name() != tc.wantHeader || e.Name() != tc.wantEmbed) {
				t.Errorf("got names %q, %q; want %q, %q", h.Name(), e.Name(), tc.wantHeader, tc.wantEmbed)
			}
			if !strings.HasPrefix(h.Name(), tc.wantHeader) || !strings.HasSuffix(h.Name(), "+"+prompt.PromptVersion) || !strings.HasPrefix(e.Name(), tc.wantEmbed) {
				t.Errorf("got names %q, %q; want prefixes %q, %q and the prompt version", h.Name(), e.Name(), tc.wantHeader, tc.wantEmbed)
			}
			if e.Dims() != testDims {
				t.Errorf("got %d dims, want %d", e.Dims(), testDims)
			}
		})
	}
}

// TestOpenBackendsOffline checks that none and builtin touch no server.
func TestOpenBackendsOffline(t *testing.T) {
	h, e, err := Open(context.Background(), models.BackendConfig{Addrs: map[string]string{"ollama": "http://127.0.0.1:1"}, Dims: 256})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := h.(*extractive.Extractive); !ok {
		t.Errorf("got header writer %T, want *Extractive", h)
	}
	if b, ok := e.(*lexical.Builtin); !ok || b.Dims() != 256 {
		t.Errorf("got embedder %T with %d dims, want *lexical.Builtin with 256", e, e.Dims())
	}
}

// TestOpenBackendsDims checks where the width comes from: /api/show's model
// info, else one probe call; and that an API key goes as a Bearer token.
func TestOpenBackendsDims(t *testing.T) {
	tests := []struct {
		name       string
		kind       backendKind
		opt        modelfake.Options
		wantProbes int
	}{
		{"ollama model info", backendKinds[0], modelfake.Options{Dims: 48}, 0},
		{"ollama probe", backendKinds[0], modelfake.Options{Dims: 48, NoModelInfo: true}, 1},
		{"openai probe with a key", backendKinds[1], modelfake.Options{Dims: 48, APIKey: "k-123"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _, e := openFakeBackends(t, tc.kind, tc.opt, func(c *models.BackendConfig) { c.OpenAIKeyEnv, c.OpenAIKey = "INGEST_TEST_KEY", "k-123" })
			if e.Dims() != 48 {
				t.Errorf("got %d dims, want 48", e.Dims())
			}
			if got := srv.Calls(tc.kind.embedPath); got != tc.wantProbes {
				t.Errorf("got %d embed calls at start, want %d", got, tc.wantProbes)
			}
		})
	}
}

func TestOllamaBase(t *testing.T) {
	t.Setenv("OLLAMA_HOST", "http://ignored:1") // the command line reads it, never the client
	tests := []struct{ host, want string }{
		{"", "http://127.0.0.1:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{"gpu-box:8080", "http://gpu-box:8080"},
		{"https://models.example/", "https://models.example"},
	}
	for _, tc := range tests {
		u, err := ollama.OllamaBase(tc.host)
		if err != nil || u.String() != tc.want {
			t.Errorf("OllamaBase(%q): got %v, %v; want %s", tc.host, u, err, tc.want)
		}
	}
}
