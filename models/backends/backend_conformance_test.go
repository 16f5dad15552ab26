package backends

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// conformanceEnv is one case's backends on a fresh fake.
type conformanceEnv struct {
	kind backendKind
	srv  *modelfake.Server
	h    *remote.ModelHeaders
	e    *remote.ModelEmbedder
}

func (env conformanceEnv) header(t *testing.T) (models.Enrichment, error) {
	t.Helper()
	doc, c := stagestest.RipDoc()
	return env.h.Header(context.Background(), doc, c)
}

// conformanceCases are what both backends must do alike.
var conformanceCases = []struct {
	name    string
	fault   modelfake.Fault // set after start-up, so it hits the run's calls only
	timeout time.Duration   // per call; 0: 5s
	check   func(t *testing.T, env conformanceEnv)
}{
	{name: "valid answer", check: func(t *testing.T, env conformanceEnv) {
		e, err := env.header(t)
		if err != nil {
			t.Fatal(err)
		}
		if e.Source != schema.HeaderModel || e.Calls != 1 || e.Reject != "" {
			t.Errorf("got source %q, calls %d, reject %q; want model, 1, none", e.Source, e.Calls, e.Reject)
		}
		if !strings.HasPrefix(e.Header, "About If a rip current") || e.Fields.Hazard != "rip_current" {
			t.Errorf("got header %q, hazard %q; want the fake's answer", e.Header, e.Fields.Hazard)
		}
		want := []schema.ProposedThreshold{{Subject: "wave_height", Comparator: "above", Value: 1.5, Unit: "m"}}
		if !slices.Equal(e.Thresholds, want) {
			t.Errorf("got thresholds %v, want %v", e.Thresholds, want)
		}
	}},
	{name: "invalid answer once: one repair", fault: modelfake.Fault{Kind: modelfake.SchemaViolation, Times: 1}, check: func(t *testing.T, env conformanceEnv) {
		e, err := env.header(t)
		if err != nil {
			t.Fatal(err)
		}
		if e.Source != schema.HeaderModel || e.Calls != 2 {
			t.Errorf("got source %q, calls %d; want model, 2", e.Source, e.Calls)
		}
		reqs := env.srv.Requests(env.kind.chatPath)
		if len(reqs) != 2 {
			t.Fatalf("got %d chat calls, want 2", len(reqs))
		}
		msgs := requestMessages(t, reqs[1])
		if len(msgs) != 4 || msgs[2].Role != "assistant" || !strings.Contains(msgs[2].Content, `"hazard":7`) ||
			!strings.Contains(msgs[3].Content, "invalid") || !strings.Contains(msgs[3].Content, "hazard: want a string") {
			t.Errorf("got repair messages %+v, want the bad answer and its validation error", msgs)
		}
	}},
	{name: "invalid answer always: extractive fallback", fault: modelfake.Fault{Kind: modelfake.SchemaViolation}, check: func(t *testing.T, env conformanceEnv) {
		e, err := env.header(t)
		if err != nil {
			t.Fatal(err)
		}
		doc, c := stagestest.RipDoc()
		if e.Source != schema.HeaderExtractiveFallback || e.Calls != 2 || e.Header != extractive.Header(doc.Title, c, models.DefaultHeaderChars) {
			t.Errorf("got source %q, calls %d, header %q; want the extractive fallback after 2 calls", e.Source, e.Calls, e.Header)
		}
		if !strings.Contains(e.Reject, `"comparator":"over"`) {
			t.Errorf("got reject %q, want the raw answer", e.Reject)
		}
		if got := env.srv.Calls(env.kind.chatPath); got != 2 {
			t.Errorf("got %d chat calls, want 2 (one repair, no more)", got)
		}
		if s := env.h.Stats(); s.Repairs != 1 || s.Fallbacks != 1 {
			t.Errorf("got stats %+v, want 1 repair and 1 fallback", s)
		}
	}},
	{name: "table row: no model call", check: func(t *testing.T, env conformanceEnv) {
		doc, c := stagestest.RipDoc()
		c.Element = schema.ElementTableRow
		e, err := env.h.Header(context.Background(), doc, c)
		if err != nil {
			t.Fatal(err)
		}
		if e.Source != schema.HeaderExtractive || e.Calls != 0 || env.srv.Calls(env.kind.chatPath) != 0 {
			t.Errorf("got source %q, calls %d, server calls %d; want extractive and none", e.Source, e.Calls, env.srv.Calls(env.kind.chatPath))
		}
	}},
	{name: "500 twice then an answer", fault: modelfake.Fault{Kind: modelfake.Status500, Times: 2}, check: func(t *testing.T, env conformanceEnv) {
		if e, err := env.header(t); err != nil || e.Source != schema.HeaderModel || e.Calls != 1 {
			t.Fatalf("got %+v, %v; want a model header counted as 1 call", e, err)
		}
		if got, s := env.srv.Calls(env.kind.chatPath), env.h.Stats(); got != 3 || s.Retries != 2 {
			t.Errorf("got %d server calls, %d retries; want 3 and 2", got, s.Retries)
		}
	}},
	{name: "500 always: an error, not a fallback", fault: modelfake.Fault{Kind: modelfake.Status500}, check: func(t *testing.T, env conformanceEnv) {
		_, err := env.header(t)
		if err == nil || !strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "after 3 tries") {
			t.Errorf("got %v, want a 500 error after 3 tries", err)
		}
		if got := env.srv.Calls(env.kind.chatPath); got != fastRetry.Tries {
			t.Errorf("got %d calls, want %d", got, fastRetry.Tries)
		}
	}},
	{name: "429 honours Retry-After", fault: modelfake.Fault{Kind: modelfake.RateLimit, Times: 1, RetryAfter: 150 * time.Millisecond}, check: func(t *testing.T, env conformanceEnv) {
		start := time.Now()
		if _, err := env.header(t); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < 150*time.Millisecond {
			t.Errorf("got the answer after %s, want at least the 150ms Retry-After", d)
		}
	}},
	{name: "429 always: an error naming the status", fault: modelfake.Fault{Kind: modelfake.RateLimit}, check: func(t *testing.T, env conformanceEnv) {
		var se *server.StatusError
		if _, err := env.header(t); !errors.As(err, &se) || se.Code != 429 {
			t.Errorf("got %v, want a 429 StatusError", err)
		}
	}},
	{name: "malformed 200 then an answer", fault: modelfake.Fault{Kind: modelfake.MalformedJSON, Times: 1}, check: func(t *testing.T, env conformanceEnv) {
		if e, err := env.header(t); err != nil || e.Source != schema.HeaderModel {
			t.Fatalf("got %+v, %v; want a model header", e, err)
		}
		if got := env.srv.Calls(env.kind.chatPath); got != 2 {
			t.Errorf("got %d calls, want 2", got)
		}
	}},
	{name: "hung call times out and is retried", fault: modelfake.Fault{Kind: modelfake.Hang, Times: 1}, timeout: 200 * time.Millisecond, check: func(t *testing.T, env conformanceEnv) {
		if e, err := env.header(t); err != nil || e.Source != schema.HeaderModel {
			t.Fatalf("got %+v, %v; want a model header", e, err)
		}
		if got := env.srv.Calls(env.kind.chatPath); got != 2 {
			t.Errorf("got %d calls, want 2", got)
		}
	}},
	{name: "server dies mid-run", fault: modelfake.Fault{Kind: modelfake.Die, After: 1}, check: func(t *testing.T, env conformanceEnv) {
		if _, err := env.header(t); err != nil {
			t.Fatalf("first call: %v", err)
		}
		start := time.Now()
		if _, err := env.header(t); err == nil {
			t.Fatal("got no error from a dead server, want one")
		}
		if d := time.Since(start); d > slowBound {
			t.Errorf("gave up after %s, want a bounded retry", d)
		}
		if _, err := env.e.Embed(context.Background(), backendTexts(3)); err == nil {
			t.Error("embed on a dead server: got no error, want one")
		}
	}},
	{name: "embed: batches of at most 10, vectors in order", check: func(t *testing.T, env conformanceEnv) {
		texts := backendTexts(25)
		vecs, err := env.e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range vecs {
			if !slices.Equal(v, modelfake.Vector(texts[i], testDims)) {
				t.Fatalf("vector %d is not the fake's vector of input %d", i, i)
			}
		}
		var sizes []int
		for _, b := range env.srv.Requests(env.kind.embedPath) {
			sizes = append(sizes, len(requestInputs(t, b)))
		}
		if want := []int{10, 10, 5}; !slices.Equal(sizes[len(sizes)-3:], want) {
			t.Errorf("got batch sizes %v, want ... %v", sizes, want)
		}
	}},
	{name: "embed: wrong width is final", fault: modelfake.Fault{Kind: modelfake.WrongDims}, check: func(t *testing.T, env conformanceEnv) {
		before := env.srv.Calls(env.kind.embedPath)
		_, err := env.e.Embed(context.Background(), backendTexts(3))
		if err == nil || !strings.Contains(err.Error(), "63 dimensions, want 64") {
			t.Errorf("got %v, want a width error", err)
		}
		if got := env.srv.Calls(env.kind.embedPath) - before; got != 1 {
			t.Errorf("got %d calls, want 1 (no retry can fix a width)", got)
		}
	}},
	{name: "embed: 500 and malformed answers are retried", fault: modelfake.Fault{Kind: modelfake.Status500, Times: 1}, check: func(t *testing.T, env conformanceEnv) {
		if _, err := env.e.Embed(context.Background(), backendTexts(3)); err != nil {
			t.Fatal(err)
		}
		env.srv.SetFault(modelfake.Fault{Kind: modelfake.MalformedJSON, Times: 1})
		if _, err := env.e.Embed(context.Background(), backendTexts(3)); err != nil {
			t.Fatal(err)
		}
		if s := env.e.Stats(); s.Retries != 2 {
			t.Errorf("got %d retries, want 2", s.Retries)
		}
	}},
	{name: "embed: a refused input is found by halving", fault: modelfake.Fault{Kind: modelfake.BadInput, Match: "POISON"}, check: func(t *testing.T, env conformanceEnv) {
		texts := backendTexts(10)
		texts[6] = "POISON " + texts[6]
		_, err := env.e.Embed(context.Background(), texts)
		var ie *remote.InputError
		if !errors.As(err, &ie) || ie.Index != 6 || !strings.HasPrefix(ie.Excerpt, "POISON") {
			t.Fatalf("got %v, want input 6 named", err)
		}
		if got := env.srv.Calls(env.kind.embedPath); got > 1+2*4 {
			t.Errorf("got %d calls, want a bisection (at most 9)", got)
		}
	}},
}

func TestBackendConformance(t *testing.T) {
	for _, kind := range backendKinds {
		for _, tc := range conformanceCases {
			t.Run(kind.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				srv, h, e := openFakeBackends(t, kind, modelfake.Options{}, func(c *models.BackendConfig) {
					if tc.timeout > 0 {
						c.Timeout = tc.timeout
					}
				})
				if tc.fault.Kind != modelfake.None {
					srv.SetFault(tc.fault)
				}
				tc.check(t, conformanceEnv{kind: kind, srv: srv, h: h, e: e})
			})
		}
	}
}

// TestBackendCancel checks that cancelling the run ends a hung call at
// once, without a retry, for headers and embeddings alike.
func TestBackendCancel(t *testing.T) {
	for _, kind := range backendKinds {
		for _, what := range []string{"header", "embed"} {
			t.Run(kind.name+"/"+what, func(t *testing.T) {
				t.Parallel()
				srv, h, e := openFakeBackends(t, kind, modelfake.Options{}, func(c *models.BackendConfig) { c.Timeout = time.Minute })
				srv.SetFault(modelfake.Fault{Kind: modelfake.Hang})
				ctx, cancel := context.WithCancel(context.Background())
				path := kind.chatPath
				if what == "embed" {
					path = kind.embedPath
				}
				before := srv.Calls(path)
				var start time.Time
				go func() { // cancel once the call hangs on the server, however busy the machine
					for deadline := time.Now().Add(10 * time.Second); srv.Calls(path) == before && time.Now().Before(deadline); {
						time.Sleep(5 * time.Millisecond)
					}
					time.Sleep(20 * time.Millisecond)
					start = time.Now()
					cancel()
				}()
				var err error
				if what == "header" {
					doc, c := stagestest.RipDoc()
					_, err = h.Header(ctx, doc, c)
				} else {
					_, err = e.Embed(ctx, backendTexts(3))
				}
				if !errors.Is(err, context.Canceled) {
					t.Errorf("got %v, want context.Canceled", err)
				}
				if d := time.Since(start); d > slowBound {
					t.Errorf("returned after %s, want promptly", d)
				}
				if got := srv.Calls(path) - before; got != 1 {
					t.Errorf("got %d calls, want 1 (no retry after cancellation)", got)
				}
			})
		}
	}
}
