package ollama

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/server"
)

// TestWire pins what the client sends and reads: every request of a fixed
// script (ping, look-up, chat with and without a schema and a window,
// embed with and without one), recorded on its way to the fake server —
// method, path, query, headers, the JSON body with its keys sorted — and
// what the client read of each answer, against testdata/wire.txtar. The
// signed section's requests carry a signature the recorder verifies
// against the test key. The golden was written by the client built on
// Ollama's module (github.com/ollama/ollama/api v0.17.4) before our own
// replaced it: a difference from it is a change on the wire.
func TestWire(t *testing.T) {
	file := filepath.Join("testdata", "wire.txtar")
	ar, err := txtar.ParseFile(file)
	if err != nil && !golden.Updating() {
		t.Fatal(err)
	}
	if ar == nil {
		ar = &txtar.Archive{}
	}
	for _, signed := range []bool{false, true} {
		name := "plain"
		if signed {
			name = "signed"
		}
		t.Run(name, func(t *testing.T) {
			fake := modelfake.New(modelfake.Options{Dims: 8, Latency: 10 * time.Millisecond}) // latency: the chat answers' durations are not zero
			defer fake.Close()
			rec := &recorder{t: t}
			var key string
			if signed {
				key, rec.pub = writeTestKey(t)
			}
			proxy := httptest.NewServer(rec.handler(fake.URL))
			defer proxy.Close()
			o := wireClient(t, proxy.URL, signed, key)
			wireScript(t, o, rec)
			golden.CheckSection(t, file, ar, name, []byte(rec.String()))
		})
	}
}

// wireClient is the client under test, signing with the key at key when
// signed.
func wireClient(t *testing.T, host string, signed bool, key string) *Client {
	t.Helper()
	o, err := New(host, signed, key, 10*time.Second, &server.Retrier{Policy: models.RetryPolicy{Tries: 1}, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// wireSchema is a small answer schema, with the keywords the header
// writer's has.
const wireSchema = `{"type": "object", "properties": {"context_header": {"type": "string", "maxLength": 160}},
	"required": ["context_header"], "additionalProperties": false}`

// wireScript makes every call the client has, noting what it read of each
// answer.
func wireScript(t *testing.T, o *Client, rec *recorder) {
	ctx := context.Background()
	if err := o.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	rec.note("ping: ok")
	info, err := o.Lookup(ctx, "bge-m3")
	if err != nil {
		t.Fatal(err)
	}
	rec.note(fmt.Sprintf("lookup: %+v", info))
	for _, req := range []server.ChatRequest{
		{Model: "qwen2.5:7b", NumCtx: 4096, Schema: json.RawMessage(wireSchema), Messages: []server.ChatMessage{
			{Role: "system", Content: "You write one header & nothing else."},
			{Role: "user", Content: "<chunk-0a1b>\nCorrentes de retorno › nade paralelamente à praia.\n</chunk-0a1b>"},
		}},
		{Model: "qwen2.5:7b", Messages: []server.ChatMessage{{Role: "user", Content: "Rip currents: swim parallel to the shore."}}},
	} {
		a, err := o.Chat(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		u := a.Usage
		rec.note(fmt.Sprintf("chat: %d bytes of content; calls %d, prompt tokens %d, answer tokens %d; times given: prompt %v, answer %v, work %v, total %v",
			len(a.Content), u.Calls, u.PromptTokens, u.AnswerTokens, u.PromptSeconds > 0, u.AnswerSeconds > 0, a.Times.Work > 0, a.Times.Total > 0))
	}
	for _, req := range []server.EmbedRequest{
		{Model: "bge-m3", Texts: []string{"Rip currents", "Correntes de retorno › praia"}, NumCtx: 8192, Dims: 8},
		{Model: "bge-m3", Texts: []string{"<b>Waves</b> & wind"}},
	} {
		r, err := o.Embed(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range r.Vectors {
			if want := modelfake.Vector(req.Texts[i], 8); !slices.Equal(v, want) {
				t.Errorf("embed: vector %d is not the fake's", i)
			}
		}
		rec.note(fmt.Sprintf("embed: %d vectors of %d, %d tokens", len(r.Vectors), len(r.Vectors[0]), r.Tokens))
	}
}

// recorder writes down the requests that pass it on their way to the fake,
// and notes of what the client read.
type recorder struct {
	t   *testing.T
	pub ssh.PublicKey // requests must be signed with it; nil: not signed

	mu sync.Mutex
	b  strings.Builder
}

func (rec *recorder) String() string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.b.String()
}

func (rec *recorder) note(s string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	fmt.Fprintf(&rec.b, "-> %s\n\n", s)
}

func (rec *recorder) handler(target string) http.Handler {
	u, err := url.Parse(target)
	if err != nil {
		panic(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			rec.t.Errorf("read request: %v", err)
		}
		rec.write(r, body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	})
}

// write records one request. The parts that change from run to run are
// checked and written as what they are: the signing time, the signature,
// the Go version in a User-Agent.
func (rec *recorder) write(r *http.Request, body []byte) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	b := &rec.b
	fmt.Fprintf(b, "%s %s\n", r.Method, r.URL.Path)
	q := r.URL.Query()
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	}) {
		v := q.Get(k)
		if k == "ts" {
			v = rec.checkTS(v)
		}
		fmt.Fprintf(b, "query %s=%s\n", k, v)
	}
	var names []string
	for k := range r.Header {
		if k != "Content-Length" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		v := r.Header.Get(k)
		switch k {
		case "User-Agent":
			v, _, _ = strings.Cut(v, " ") // the product; the platform and the Go version vary
		case "Authorization":
			v = rec.checkSignature(r, v)
		}
		fmt.Fprintf(b, "%s: %s\n", k, v)
	}
	if len(body) == 0 {
		b.WriteString("(no body)\n\n")
		return
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		fmt.Fprintf(b, "(not JSON: %q)\n\n", body)
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	b.WriteString("\n")
}

// checkTS checks a signing time is now's.
func (rec *recorder) checkTS(v string) string {
	ts, err := strconv.ParseInt(v, 10, 64)
	if d := time.Since(time.Unix(ts, 0)); err != nil || d < -time.Minute || d > time.Minute {
		rec.t.Errorf("got ts=%q, want the Unix time now", v)
	}
	return "(now, in Unix seconds)"
}

// checkSignature checks an Authorization header is Ollama's signature of
// "METHOD,PATH?ts=TS" by the test key: the key's public half in SSH wire
// form, base64, a colon, and the signature, base64.
func (rec *recorder) checkSignature(r *http.Request, v string) string {
	if rec.pub == nil {
		rec.t.Errorf("%s %s: got Authorization %q, want none", r.Method, r.URL.Path, v)
		return v
	}
	pub64, sig64, _ := strings.Cut(v, ":")
	if pub64 != base64.StdEncoding.EncodeToString(rec.pub.Marshal()) {
		rec.t.Errorf("%s %s: got the public key %q, want the test key's", r.Method, r.URL.Path, pub64)
	}
	sig, err := base64.StdEncoding.DecodeString(sig64)
	challenge := r.Method + "," + r.URL.Path + "?ts=" + r.URL.Query().Get("ts")
	if err != nil || rec.pub.Verify([]byte(challenge), &ssh.Signature{Format: ssh.KeyAlgoED25519, Blob: sig}) != nil {
		rec.t.Errorf("%s %s: the signature %q does not verify over %q with the test key (%v)", r.Method, r.URL.Path, sig64, challenge, err)
	}
	return fmt.Sprintf("the test key's signature of %q", r.Method+","+r.URL.Path+"?ts=TS")
}

// writeTestKey writes a fixed ed25519 key as Ollama keeps its own and
// returns its path and public half.
func writeTestKey(t *testing.T) (string, ssh.PublicKey) {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	pub, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return writeKey(t, priv, ""), pub
}

// TestWireErrors pins what each call makes of a server's refusals, in the
// "errors" section of testdata/wire.txtar: the error and, when it is a
// *server.StatusError (what the retrier and the batch bisection read), its
// code and message. The server lists bge-m3 and answers everything else
// with the refusal.
func TestWireErrors(t *testing.T) {
	file := filepath.Join("testdata", "wire.txtar")
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	refusals := []struct {
		name, ctype, body string
		code              int
	}{
		{"not found", "application/json", `{"error":"model 'bge-m3' not found"}`, http.StatusNotFound},
		{"bad request", "application/json", `{"error":"input length exceeds the context length"}`, http.StatusBadRequest},
		{"unauthorized", "application/json", `{"error":"unauthorized","signin_url":"https://ollama.com/connect?name=host&key=abc"}`, http.StatusUnauthorized},
		{"rate limited", "application/json", `{"error":"too many requests"}`, http.StatusTooManyRequests},
		{"plain text", "text/plain", "model runner crashed\n", http.StatusInternalServerError},
		{"proxy page", "text/html", "<html><body>502 Bad Gateway</body></html>", http.StatusBadGateway},
		{"JSON without a message", "application/json", `{"status":"down"}`, http.StatusServiceUnavailable},
		{"error in a 200", "application/json", `{"error":"an error after the answer began"}`, http.StatusOK},
	}
	var b strings.Builder
	for _, rf := range refusals {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/tags" {
				_, _ = io.WriteString(w, `{"models":[{"name":"bge-m3:latest","model":"bge-m3:latest","digest":"0123456789abcdef"}]}`)
				return
			}
			w.Header().Set("Content-Type", rf.ctype)
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(rf.code)
			_, _ = io.WriteString(w, rf.body)
		}))
		o := wireClient(t, srv.URL, false, "")
		ctx := context.Background()
		fmt.Fprintf(&b, "%s: %d %q\n", rf.name, rf.code, rf.body)
		for _, call := range []struct {
			name string
			do   func() error
		}{
			{"ping", func() error { return o.Ping(ctx) }},
			{"lookup", func() error { _, err := o.Lookup(ctx, "bge-m3"); return err }},
			{"chat", func() error {
				_, err := o.Chat(ctx, server.ChatRequest{Model: "bge-m3", Messages: []server.ChatMessage{{Role: "user", Content: "hi"}}})
				return err
			}},
			{"embed", func() error {
				_, err := o.Embed(ctx, server.EmbedRequest{Model: "bge-m3", Texts: []string{"hi"}})
				return err
			}},
		} {
			err := call.do()
			fmt.Fprintf(&b, "  %s: %v\n", call.name, strings.ReplaceAll(fmt.Sprint(err), srv.URL, "http://SERVER"))
			var se *server.StatusError
			if errors.As(err, &se) {
				fmt.Fprintf(&b, "    status %d, message %q\n", se.Code, se.Msg)
			}
		}
		srv.Close()
	}
	golden.CheckSection(t, file, ar, "errors", []byte(b.String()))
}
