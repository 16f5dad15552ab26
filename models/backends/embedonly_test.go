package backends

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/server"
)

// embedOnly is the smallest client of an embedding-only server: a TEI-like
// API, POST /embed {"inputs": [...]} answered [[floats], …], GET /health.
// It has no Chat, and is registered by the test alone (withKind): no flag,
// no BackendConfig field, no settings prefix is written for it.
type embedOnly struct {
	base string
	http *http.Client
}

var _ server.Embedder = (*embedOnly)(nil)

func (c *embedOnly) Where() string { return "embedonly at " + c.base }

func (c *embedOnly) Ping(ctx context.Context) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/health", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s is unreachable: %w", c.Where(), err)
	}
	return resp.Body.Close()
}

func (c *embedOnly) Lookup(context.Context, string) (server.ModelInfo, error) {
	return server.ModelInfo{Digest: "rev:0123456789ab"}, nil // width unknown: the embedder probes it
}

func (c *embedOnly) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	body, _ := json.Marshal(map[string]any{"inputs": req.Texts})
	hr, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/embed", bytes.NewReader(body))
	resp, err := c.http.Do(hr)
	if err != nil {
		return server.EmbedResult{}, err
	}
	defer resp.Body.Close()
	var vecs [][]float32
	if err := json.NewDecoder(resp.Body).Decode(&vecs); err != nil {
		return server.EmbedResult{}, err
	}
	return server.EmbedResult{Vectors: vecs}, nil
}

// embedOnlyServer answers the embedOnly API in process, counting calls.
func embedOnlyServer(t *testing.T, dims int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("POST /embed", func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct{ Inputs []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		out := make([][]float32, len(req.Inputs))
		for i, in := range req.Inputs {
			out[i] = modelfake.Vector(in, dims)
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &calls
}

// withKind registers k for the test.
func withKind(t *testing.T, k Kind) {
	t.Helper()
	was := kinds
	kinds = append(slices.Clip(kinds), k)
	t.Cleanup(func() { kinds = was })
}

// TestEmbeddingOnlyKind: a kind whose client only embeds is one
// registration: --embedder embedonly:MODEL opens through Open (one server
// or a pool of them), the headers are the offline writer's, and --llm
// embedonly:MODEL is refused at once, naming the kinds that chat; the
// command line's lists and the settings' server counts take it without a
// line of their own.
func TestEmbeddingOnlyKind(t *testing.T) {
	withKind(t, register(Kind{Name: "embedonly", Flag: "embedonly-url", Env: "INGEST_EMBEDONLY_URL", Usage: "an embedding-only server's address"},
		func(addr string, c models.BackendConfig, _ *server.Retrier) (*embedOnly, error) {
			return &embedOnly{base: strings.TrimRight(addr, "/"), http: server.NewHTTPClient(c.Timeout)}, nil
		}))
	if _, chats := any(&embedOnly{}).(server.Chatter); chats {
		t.Fatal("the embedding-only client chats")
	}
	if k, _ := lookupKind("embedonly"); k.Serves(Chat) || !k.Serves(Embed) {
		t.Errorf("got chat %v, embeddings %v; want embeddings only, read off the client's type", k.Serves(Chat), k.Serves(Embed))
	}
	if !strings.Contains(Specs(Embed), "embedonly:MODEL") || strings.Contains(Specs(Chat), "embedonly") {
		t.Errorf("got chat specs %q, embedding specs %q; want embedonly among the embedders only", Specs(Chat), Specs(Embed))
	}

	a, aCalls := embedOnlyServer(t, 24)
	b, bCalls := embedOnlyServer(t, 24)
	tests := []struct {
		name, addr string
	}{
		{"one server", a.URL},
		{"a pool", a.URL + "," + b.URL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := models.BackendConfig{Embedder: "embedonly:bge-small", Addrs: map[string]string{"embedonly": tc.addr}, Retry: fastRetry}
			h, e, err := Open(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := h.(*extractive.Extractive); !ok {
				t.Errorf("got header writer %T, want the extractive one", h)
			}
			if e.Name() != "embedonly:bge-small@rev:0123456789ab" || e.Dims() != 24 {
				t.Errorf("got embedder %s of %d dims, want embedonly:bge-small@rev:0123456789ab of 24 (probed)", e.Name(), e.Dims())
			}
			for i := range 20 {
				vs, err := e.Embed(context.Background(), []string{fmt.Sprintf("swim parallel to the shore, %d", i)})
				if err != nil || len(vs) != 1 || len(vs[0]) != 24 {
					t.Fatalf("got %d vectors (%v), want one of 24", len(vs), err)
				}
			}
			if got, want := cfg.Servers(cfg.Embedder), len(models.SplitHosts(tc.addr)); got != want {
				t.Errorf("got %d servers for the settings, want %d", got, want)
			}
		})
	}
	if bCalls.Load() == 0 || aCalls.Load() == 0 {
		t.Errorf("got %d and %d embedding calls, want the pool to use both servers", aCalls.Load(), bCalls.Load())
	}

	before := aCalls.Load()
	_, _, err := Open(context.Background(), models.BackendConfig{LLM: "embedonly:bge-small", Addrs: map[string]string{"embedonly": a.URL}})
	if !errors.Is(err, models.ErrBackendSetup) || !strings.Contains(err.Error(), "embedonly serves no chat: want none, ollama:MODEL or openai:MODEL") {
		t.Errorf("got %v, want a setup error naming the kinds that chat", err)
	}
	if aCalls.Load() != before {
		t.Errorf("got %d calls for a refused --llm, want none", aCalls.Load()-before)
	}
}
