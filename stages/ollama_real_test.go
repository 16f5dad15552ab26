package stages

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
)

// chatSeen is one chat call a recording proxy passed to a real server: its
// document and what the server said it read.
type chatSeen struct {
	doc        string
	promptEval int           // prompt_eval_count: the tokens the server evaluated
	evalTime   time.Duration // prompt_eval_duration
}

// recordingProxy passes every call to the server at target and records
// the chat calls in the order they reached it.
func recordingProxy(t *testing.T, target string) (string, func() []chatSeen) {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []*chatSeen
	proxy := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/chat" {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct{ Messages []struct{ Content string } }
		json.Unmarshal(body, &req) // a call that is not JSON has no document
		var prompt string
		for _, m := range req.Messages {
			prompt += m.Content
		}
		c := &chatSeen{doc: docOf(prompt)}
		mu.Lock()
		seen = append(seen, c) // in the order the calls arrive
		mu.Unlock()
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r)
		var answer struct {
			PromptEvalCount    int   `json:"prompt_eval_count"`
			PromptEvalDuration int64 `json:"prompt_eval_duration"`
		}
		if json.Unmarshal(rec.Body.Bytes(), &answer) == nil {
			mu.Lock()
			c.promptEval, c.evalTime = answer.PromptEvalCount, time.Duration(answer.PromptEvalDuration)
			mu.Unlock()
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []chatSeen {
		mu.Lock()
		defer mu.Unlock()
		var out []chatSeen
		for _, c := range seen {
			out = append(out, *c)
		}
		return out
	}
}

// TestOllamaRealOneSlotRun runs a corpus of three documents (four rules
// each) through the pipeline against the real-Ollama tier's server
// (OLLAMA_NUM_PARALLEL=1: one slot, whose cache holds its last prompt),
// through a proxy that records the calls as they reach it: each
// document's calls arrive one after another, and, as the server's log
// says of its slot, every later call of a document reads the document
// from the cache (more tokens reused than the document's first call,
// which shares only the system prompt with the document before), and
// evaluates, median, under 0.6 of what the first did. Skipped without the
// tier (.ci/ollama.sh test sets INGEST_OLLAMA_HOST and INGEST_OLLAMA_RUN).
func TestOllamaRealOneSlotRun(t *testing.T) {
	host := os.Getenv("INGEST_OLLAMA_HOST")
	if host == "" {
		t.Skip("INGEST_OLLAMA_HOST is not set: the real-Ollama tier runs with `just test-ollama` (.ci/ollama.sh test)")
	}
	chat := os.Getenv("INGEST_OLLAMA_CHAT_MODEL")
	if chat == "" {
		chat = "tiny-chat"
	}
	dir := t.TempDir()
	beaches := []string{"Joaquina", "Mole", "Campeche"}
	for d, beach := range beaches {
		var rules []byte
		for i := range 4 {
			rules = fmt.Appendf(rules, "- Rule %d at %s: rip currents pull swimmers away from %s's shore; swim parallel to the beach and wave for help.\n", i+1, beach, beach)
		}
		doc := fmt.Sprintf("---\ntitle: Rips at %s\nkind: safety\nlang: en\nsource: https://example.org/rips-%d\n---\n\n# Rips at %s\n\n## What to do\n\n%s", beach, d, beach, rules)
		if err := os.MkdirAll(filepath.Join(dir, "safety"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "safety", fmt.Sprintf("rips-%d.md", d)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	logPath, logSize := serverLog(t)
	logFrom := func() (string, int64) { return logPath, logSize }
	addr, calls := recordingProxy(t, host)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cfg := testConfig(dir, filepath.Join(t.TempDir(), "snap"), 0)
	cliConcurrency(&cfg.Config, 1)
	h, _, err := backends.Open(ctx, backendConfig(cfg.Config, models.BackendConfig{
		LLM: "ollama:" + chat, Addrs: map[string]string{"ollama": addr}, Timeout: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runOut(ctx, cfg, Options{Headers: h}); err != nil {
		t.Fatal(err)
	}
	seen := calls()
	if len(seen) < 12 {
		t.Fatalf("got %d chat calls, want at least one for each of the 12 rules", len(seen))
	}
	var runs []int // each document's calls, in the order they came: their count
	last := ""
	for i, c := range seen {
		t.Logf("call %d: document %s, %d prompt tokens", i, c.doc, c.promptEval)
		if c.doc != last {
			runs = append(runs, 0)
			last = c.doc
		}
		runs[len(runs)-1]++
	}
	if len(runs) != 3 {
		t.Errorf("got the calls of 3 documents in %d runs %v, want each document's calls together", len(runs), runs)
	}
	// What the server's slot reused of each prompt, from its log: the
	// calls of one document (in any order among themselves; documents
	// never overlap) are the lines of its run.
	slots := cacheLines(t, logFrom)
	if slots == nil {
		return
	}
	if len(slots) != len(seen) {
		t.Fatalf("got %d cache lines in the server's log for %d chat calls", len(slots), len(seen))
	}
	at := 0
	var shares []float64
	for d, n := range runs {
		first := slots[at]
		for _, l := range slots[at+1 : at+n] {
			t.Logf("document %d: %d of %d prompt tokens from the cache (its first call: %d of %d)", d, l.used, l.prompt, first.used, first.prompt)
			if l.used <= first.used {
				t.Errorf("document %d: a later call reused %d tokens, no more than its first call's %d: the cache did not hold the document", d, l.used, first.used)
			}
			shares = append(shares, float64(l.prompt-l.used)/float64(max(first.prompt-first.used, 1)))
		}
		at += n
	}
	slices.Sort(shares)
	if len(shares) == 0 || shares[len(shares)/2] > 0.6 {
		t.Errorf("got later calls evaluating %v of what their document's first did, want the median under 0.6", shares)
	}
}

// cacheLine is one call as the server's log tells of its slot: the
// prompt's tokens, and how many of them its cache held.
type cacheLine struct{ prompt, used int }

// serverLog is the tier's server log (.ci/ollama.sh starts the server with
// OLLAMA_DEBUG), and how long it is now: the lines after are the test's.
func serverLog(t *testing.T) (string, int64) {
	run := os.Getenv("INGEST_OLLAMA_RUN")
	if run == "" {
		return "", 0
	}
	p := filepath.Join(run, "server.log")
	fi, err := os.Stat(p)
	if err != nil {
		t.Logf("no server log (%v): the cache is not read", err)
		return "", 0
	}
	return p, fi.Size()
}

var cacheLineRe = regexp.MustCompile(`msg="loading cache slot".* prompt=(\d+) used=(\d+)`)

// cacheLines reads the slot lines written to the log since from; nil
// without a log.
func cacheLines(t *testing.T, from func() (string, int64)) []cacheLine {
	p, off := from()
	if p == "" {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []cacheLine
	for _, m := range cacheLineRe.FindAllStringSubmatch(string(b), -1) {
		prompt, _ := strconv.Atoi(m[1])
		used, _ := strconv.Atoi(m[2])
		out = append(out, cacheLine{prompt, used})
	}
	return out
}
