package backends

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
)

// longInput is an embedding input of about 250 tokens.
var longInput = strings.Repeat("Rip currents pull swimmers offshore. ", 25)

// TestEmbedOverLongInput checks that an input over the window is an error
// naming that input (Ollama is told not to truncate), found by halving.
func TestEmbedOverLongInput(t *testing.T) {
	srv, _, e := openFakeBackends(t, backendKinds[0], modelfake.Options{ContextLength: 64}, nil)
	texts := backendTexts(5)
	texts[3] = longInput
	_, err := e.Embed(context.Background(), texts)
	var ie *remote.InputError
	if !errors.As(err, &ie) || ie.Index != 3 || !strings.Contains(err.Error(), "exceeds the context length") {
		t.Fatalf("got %v, want input 3 named as over the context length", err)
	}
	var req struct {
		Truncate  *bool  `json:"truncate"`
		KeepAlive string `json:"keep_alive"`
		Options   struct {
			NumCtx int `json:"num_ctx"`
		} `json:"options"`
	}
	if err := json.Unmarshal(srv.Requests(modelfake.OllamaEmbed)[0], &req); err != nil {
		t.Fatal(err)
	}
	if req.Truncate == nil || *req.Truncate || req.Options.NumCtx != 64 || req.KeepAlive != "30m0s" {
		t.Errorf("got truncate %v, num_ctx %d, keep_alive %q; want false, 64, 30m0s", req.Truncate, req.Options.NumCtx, req.KeepAlive)
	}
}

// TestEmbedTruncations checks that inputs a server cut silently are
// recorded, with a hash that identifies the input, and that ordinary
// inputs are not.
func TestEmbedTruncations(t *testing.T) {
	tests := []struct {
		name   string
		kind   backendKind
		window int
		inputs []string
		want   int
	}{
		{"ollama ignoring truncate=false", backendKinds[0], 64, []string{"short one", longInput, "short two"}, 1},
		{"openai cutting silently", backendKinds[1], 64, []string{"short one", longInput}, 1},
		{"nothing cut", backendKinds[0], 8192, []string{"short one", longInput}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, e := openFakeBackends(t, tc.kind, modelfake.Options{ContextLength: tc.window, TruncateSilently: true}, nil)
			if _, err := e.Embed(context.Background(), tc.inputs); err != nil {
				t.Fatal(err)
			}
			got := e.Truncations()
			if len(got) != tc.want {
				t.Fatalf("got %d truncations %+v, want %d", len(got), got, tc.want)
			}
			if tc.want > 0 && (!strings.HasPrefix(got[0].Excerpt, "Rip currents pull") || len(got[0].InputHash) != 64 || got[0].BatchTokens == 0) {
				t.Errorf("got %+v, want the long input with its hash and the server's count", got[0])
			}
		})
	}
}
