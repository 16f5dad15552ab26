package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/server"
)

// TestOpenAIErrorShapes: whatever shape a compatible server gives its error
// body, the status reaches the retrier (which retries 429 and 5xx, bisects
// a batch on 400) with the server's words, and never the API key.
func TestOpenAIErrorShapes(t *testing.T) {
	const key = "sk-test-SECRET"
	tests := []struct {
		name, body string
		code       int
		want       string
	}{
		{"OpenAI's error object", `{"error":{"message":"input too long","type":"invalid_request_error"}}`, 400, "input too long"},
		{"vLLM's top-level message", `{"object":"error","message":"maximum context length is 8192","code":400}`, 400, "maximum context length is 8192"},
		{"a string error", `{"error":"model is loading"}`, 503, "model is loading"},
		{"plain text", "upstream overloaded", 503, "upstream overloaded"},
		{"an empty body", "", 429, ""},
		{"the key echoed back", `{"error":{"message":"bad key sk-test-SECRET"}}`, 401, "bad key [key]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.code)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			o, err := New(srv.URL+"/v1", "INGEST_TEST_OPENAI_KEY", key, time.Second, &server.Retrier{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			_, err = o.Embed(context.Background(), server.EmbedRequest{Model: "m", Texts: []string{"a"}})
			var se *server.StatusError
			if !errors.As(err, &se) || se.Code != tt.code || se.Msg != tt.want {
				t.Fatalf("got %#v (%v), want a StatusError %d %q", err, err, tt.code, tt.want)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the error %q shows the key", err)
			}
		})
	}
}

// TestOpenAIAnswerCapped: a server that answers without end is cut off at
// server.MaxAnswerBytes with an error (retried as a malformed answer), not read
// until memory runs out.
func TestOpenAIAnswerCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 64 MiB")
	}
	// The server writes on while the client has given up.
	srv, sent := modelfake.Endless(`{"data":[{"index":0,"embedding":[`, strings.Repeat("0.5,", 1<<14), 4*server.MaxAnswerBytes)
	defer srv.Close()
	// Time enough to read 64 MiB under -race on a busy machine: the bound,
	// not the clock, must end the read.
	o, err := New(srv.URL+"/v1", "", "", time.Minute, &server.Retrier{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = o.Embed(context.Background(), server.EmbedRequest{Model: "m", Texts: []string{"a"}}); err == nil {
		t.Fatal("got an answer from an endless body, want an error")
	}
	var se *server.StatusError
	if errors.As(err, &se) {
		t.Errorf("got %v, want a malformed-answer error", err)
	}
	t.Logf("error after the server sent at least %d MiB: %v", sent.Load()>>20, err)
}
