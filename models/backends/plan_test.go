package backends

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/models"
)

// TestOpenForPlanContactsNothing: a plan's backends are made without a
// request to their servers, named with the previous snapshot's digest
// where it has one (so what the run would reuse counts as reused), else
// an unknown one, and of the width given.
func TestOpenForPlanContactsNothing(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	cfg := models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL + "," + srv.URL},
		PrevDigests: models.PrevDigests("ollama:qwen2.5:7b@sha256:0123456789ab+prompt-v4")}
	h, e, err := OpenForPlan(context.Background(), cfg, 768)
	if err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("got %d requests, want none", n)
	}
	if !strings.HasPrefix(h.Name(), "ollama:qwen2.5:7b@sha256:0123456789ab+") {
		t.Errorf("got writer %s, want the previous snapshot's digest", h.Name())
	}
	if e.Name() != "ollama:bge-m3@"+unknownDigest || e.Dims() != 768 {
		t.Errorf("got embedder %s (%d dims), want an unknown digest and 768", e.Name(), e.Dims())
	}
	if _, _, err := OpenForPlan(context.Background(), models.BackendConfig{LLM: "tei:x", Embedder: "builtin"}, 1024); err == nil {
		t.Errorf("--llm tei:x: got no error, want the kinds that chat")
	}
}
