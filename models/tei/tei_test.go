package tei

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/server"
)

var fastRetry = models.RetryPolicy{Tries: 3, Initial: time.Millisecond, Max: 5 * time.Millisecond}

// open starts a fake TEI and a client of it, pinged.
func open(t *testing.T, opt modelfake.Options) (*modelfake.Server, *Client) {
	t.Helper()
	srv := modelfake.New(opt)
	t.Cleanup(srv.Close)
	c, err := New(srv.URL+"/", 5*time.Second, &server.Retrier{Policy: fastRetry, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// TestNoChat: the client embeds and has no Chat, so --llm cannot name it.
func TestNoChat(t *testing.T) {
	if _, ok := any(&Client{}).(server.Chatter); ok {
		t.Error("the TEI client chats; TEI serves no chat")
	}
}

// TestEmbed: the texts go as inputs with truncation off, one vector comes
// back a text, in order, with the tokens TEI says it read.
func TestEmbed(t *testing.T) {
	srv, c := open(t, modelfake.Options{Dims: 16})
	texts := []string{"swim parallel to the shore", "a red flag means danger", "x"}
	res, err := c.Embed(context.Background(), server.EmbedRequest{Model: "bge-m3", Texts: texts})
	if err != nil {
		t.Fatal(err)
	}
	tokens := 0
	for i, text := range texts {
		want := modelfake.Vector(text, 16)
		if len(res.Vectors[i]) != len(want) || res.Vectors[i][0] != want[0] || res.Vectors[i][15] != want[15] {
			t.Errorf("vector %d: got %v…, want %v…", i, res.Vectors[i][:2], want[:2])
		}
		tokens += modelfake.Tokens(text)
	}
	if res.Tokens != tokens {
		t.Errorf("got %d tokens, want %d (x-compute-tokens)", res.Tokens, tokens)
	}
	var req struct {
		Inputs   []string
		Truncate *bool
	}
	if err := json.Unmarshal(srv.Requests(modelfake.TEIEmbed)[0], &req); err != nil {
		t.Fatal(err)
	}
	if len(req.Inputs) != 3 || req.Truncate == nil || *req.Truncate {
		t.Errorf("got %d inputs, truncate %v; want 3 and false", len(req.Inputs), req.Truncate)
	}
}

// TestLookup: the model is the one /info names, its digest the Hub
// revision, its window the server's input length; another model is
// missing, named with the one served.
func TestLookup(t *testing.T) {
	_, c := open(t, modelfake.Options{ContextLength: 512})
	in, err := c.Lookup(context.Background(), "bge-m3")
	if err != nil {
		t.Fatal(err)
	}
	if want := "rev:" + modelfake.Digest("bge-m3")[:12]; in.Digest != want || in.Window != 512 || in.Dims != 0 {
		t.Errorf("got %+v, want digest %s, window 512, width unknown", in, want)
	}
	_, err = c.Lookup(context.Background(), "nomic-embed-text")
	if err == nil || !strings.Contains(err.Error(), `has no model "nomic-embed-text"`) || !strings.Contains(err.Error(), `it serves "bge-m3"`) {
		t.Errorf("got %v, want the model missing and the one served named", err)
	}
}

// TestDigest: the Hub revision names the weights; without one (a model
// read from a folder, or a revision that is no commit), a hash of the
// model's entry does.
func TestDigest(t *testing.T) {
	entry := regexp.MustCompile(`^info-sha256:[0-9a-f]{12}$`)
	tests := []struct {
		name string
		in   info
		want string // "": an entry's hash
	}{
		{"revision", info{ModelID: "BAAI/bge-m3", ModelSHA: "5617A9F61B028005A4858FDAC845DB406AEFB181"}, "rev:5617a9f61b02"},
		{"no revision", info{ModelID: "/data/bge-m3", MaxInputLength: 8192}, ""},
		{"not a commit", info{ModelID: "m", ModelSHA: "main"}, ""},
	}
	for _, tc := range tests {
		if got := digest(tc.in); got != tc.want && (tc.want != "" || !entry.MatchString(got)) {
			t.Errorf("%s: got %q, want %q", tc.name, got, cmp.Or(tc.want, entry.String()))
		}
	}
	a, b := info{ModelID: "/data/m", MaxInputLength: 512}, info{ModelID: "/data/m", MaxInputLength: 8192}
	if again := digest(a); digest(a) == digest(b) || again != digest(a) {
		t.Error("got an entry's digest that is not a function of the entry")
	}
}

// TestErrors: an input over the window is refused as an input (the
// embedder halves a batch to name it), a server error keeps its status,
// a broken answer is an error, and an unreachable or wrong server names
// the setting to fix.
func TestErrors(t *testing.T) {
	srv, c := open(t, modelfake.Options{Dims: 8, ContextLength: 4})
	_, err := c.Embed(context.Background(), server.EmbedRequest{Texts: []string{strings.Repeat("long words ", 20)}})
	var se *server.StatusError
	if !errors.As(err, &se) || se.Code != 413 || !server.InvalidInput(err) || !strings.Contains(se.Msg, "exceeds the context length") {
		t.Errorf("got %v, want a 413 the embedder reads as an invalid input, with TEI's message", err)
	}
	srv.SetFault(modelfake.Fault{Kind: modelfake.Status500, Times: 1})
	if _, err := c.Embed(context.Background(), server.EmbedRequest{Texts: []string{"a"}}); !errors.As(err, &se) || se.Code != 500 {
		t.Errorf("got %v, want a 500 StatusError", err)
	}
	srv.SetFault(modelfake.Fault{Kind: modelfake.MalformedJSON, Times: 1})
	if _, err := c.Embed(context.Background(), server.EmbedRequest{Texts: []string{"a"}}); err == nil || errors.As(err, &se) {
		t.Errorf("got %v, want an unreadable answer", err)
	}

	for _, tc := range []struct{ addr, want string }{
		{"", "set tei_url (INGEST_TEI_URL)"},
		{"gpu-0:8080", "not an http(s) URL"},
	} {
		if _, err := New(tc.addr, time.Second, &server.Retrier{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q): got %v, want %q", tc.addr, err, tc.want)
		}
	}
	dead, _ := New("http://user:s3cret@127.0.0.1:1", time.Second, &server.Retrier{Timeout: time.Second})
	if err := dead.Ping(context.Background()); err == nil || !strings.Contains(err.Error(), "fix tei_url (INGEST_TEI_URL)") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("got %v, want unreachable, the setting named, the password hidden", err)
	}
}

// TestBoundedAnswer: a server that answers without end is cut off at
// server.MaxAnswerBytes with ErrAnswerTooLarge (retried as a malformed
// answer), not read until memory runs out.
func TestBoundedAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 64 MiB")
	}
	srv, sent := modelfake.Endless(`[[`, strings.Repeat("0.5,", 1<<14), 4*server.MaxAnswerBytes)
	defer srv.Close()
	// One try, and time enough to read 64 MiB under -race on a busy
	// machine: the bound, not the clock, must end the read (CI saw a 10 s
	// timeout end it first).
	c, err := New(srv.URL, time.Minute, &server.Retrier{Policy: models.RetryPolicy{Tries: 1}, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err = c.Embed(context.Background(), server.EmbedRequest{Texts: []string{"a"}}); !errors.Is(err, server.ErrAnswerTooLarge) {
		t.Errorf("got %v, want ErrAnswerTooLarge", err)
	}
	t.Logf("error after the server sent at least %d MiB: %v", sent.Load()>>20, err)
}
