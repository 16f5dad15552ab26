package backends

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// backendKind is one model API under test; the conformance table runs
// against each.
type backendKind struct {
	name      string
	chatPath  string
	embedPath string
	config    func(url string) models.BackendConfig
}

var backendKinds = []backendKind{
	{
		name: "ollama", chatPath: modelfake.OllamaChat, embedPath: modelfake.OllamaEmbed,
		config: func(u string) models.BackendConfig {
			return models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": u}}
		},
	},
	{
		name: "openai", chatPath: modelfake.OpenAIChat, embedPath: modelfake.OpenAIEmbed,
		config: func(u string) models.BackendConfig {
			return models.BackendConfig{LLM: "openai:qwen2.5:7b", Embedder: "openai:bge-m3", Addrs: map[string]string{"openai": u + "/v1"}}
		},
	},
}

// testDims keeps the fake's vectors small: the checks are the same at 1024.
const testDims = 64

// fastRetry keeps retried tests quick; the policy's shape is what is tested.
var fastRetry = models.RetryPolicy{Tries: 3, Initial: time.Millisecond, Max: 5 * time.Millisecond}

// slowBound tells "bounded" from "waits out a backoff or a timeout" (a
// minute, or for ever): far above what a loaded machine adds, so a test
// that holds to it does not flake, and far below what the fault it catches
// would take. It is not a speed target; the benchmarks measure speed.
const slowBound = 20 * time.Second

// openFakeBackends starts a fake and opens both backends of kind on it.
func openFakeBackends(t testing.TB, kind backendKind, opt modelfake.Options, edit func(*models.BackendConfig)) (*modelfake.Server, *remote.ModelHeaders, *remote.ModelEmbedder) {
	t.Helper()
	if opt.Dims == 0 {
		opt.Dims = testDims
	}
	srv := modelfake.New(opt)
	t.Cleanup(srv.Close)
	cfg := kind.config(srv.URL)
	cfg.Retry, cfg.Timeout = fastRetry, 5*time.Second
	if edit != nil {
		edit(&cfg)
	}
	h, e, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("backends.Open: %v", err)
	}
	return srv, h.(*remote.ModelHeaders), e.(*remote.ModelEmbedder)
}

// backendTexts are n distinct embedding inputs.
func backendTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "Escape › Rip currents: swim parallel to the shore, text number " + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	return out
}

// requestMessages decodes the messages of a recorded chat request.
func requestMessages(t *testing.T, body []byte) []server.ChatMessage {
	t.Helper()
	var req struct{ Messages []server.ChatMessage }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("chat request: %v", err)
	}
	return req.Messages
}

// requestInputs decodes the inputs of a recorded embedding request.
func requestInputs(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct{ Input []string }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("embed request: %v", err)
	}
	return req.Input
}

// TestOpenAIBaseURLAsGiven: the base URL is the API's root as given, so a
// server whose API does not live at /v1 (Gemini's /v1beta/openai) works.
func TestOpenAIBaseURLAsGiven(t *testing.T) {
	srv := modelfake.New(modelfake.Options{Dims: 8, OpenAIPrefix: "/v1beta/openai"})
	defer srv.Close()
	h, e, err := Open(context.Background(), models.BackendConfig{LLM: "openai:qwen2.5:7b", Embedder: "openai:bge-m3", Addrs: map[string]string{"openai": srv.URL + "/v1beta/openai/"}, Dims: 8, MaxDims: 8})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"a text"}); err != nil {
		t.Fatal(err)
	}
	doc, c := stagestest.RipDoc()
	if _, err := h.Header(context.Background(), doc, c); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{modelfake.OpenAIModels, modelfake.OpenAIEmbed, modelfake.OpenAIChat} {
		if srv.Calls(p) == 0 {
			t.Errorf("got no call to %s under /v1beta/openai", p)
		}
	}
}
