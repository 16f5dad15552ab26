package stages

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/schema"
)

// rejectingHeaders stands in for a model whose every answer fails the
// checks: each chunk costs two calls (the answer and its repair) and gets
// the extractive header as a fallback, with the raw answer for the report.
type rejectingHeaders struct {
	name      string
	raw       string
	asked     atomic.Int64 // chunks asked (two calls each)
	failAfter int64        // 0: never; else the server dies after this many chunks
}

func (h *rejectingHeaders) Name() string { return h.name }

func (h *rejectingHeaders) Calls(schema.Chunk) bool { return true }

func (h *rejectingHeaders) Header(_ context.Context, doc schema.Document, c schema.Chunk) (models.Enrichment, error) {
	if n := h.asked.Add(1); h.failAfter > 0 && n > h.failAfter {
		return models.Enrichment{}, errServerDied
	}
	return models.Enrichment{Header: extractive.Header(doc.Title, c, 200), Source: schema.HeaderExtractiveFallback,
		Reject: h.raw, RejectReasons: []string{prompt.ReasonNotJSON}, Calls: 2}, nil
}

func newRejecting() *rejectingHeaders {
	return &rejectingHeaders{name: "fake-llm@sha256:1+v1", raw: strings.Repeat("I will not answer in JSON. ", 400)} // 10,800 bytes
}

// TestRejectedReused: an answer that failed the checks is reused like any
// answer (its fallback header and reasons kept in the snapshot), so an
// unchanged chunk costs no call whatever its answer was, and
// --retry-rejected asks again on purpose. (It was paid again on every run:
// a one-line edit re-asked every fallback chunk.)
func TestRejectedReused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  bool // one paragraph of one document edited between the runs
		retry bool // --retry-rejected
		want  func(chunks int, got int64) bool
	}{
		{"unchanged chunks, another build", false, false, func(_ int, got int64) bool { return got == 0 }},
		{"one paragraph edited", true, false, func(_ int, got int64) bool { return got >= 1 && got <= 2 }},
		{"--retry-rejected", false, true, func(chunks int, got int64) bool { return got == int64(chunks) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpus(t, "../corpus/ocean", nil)
			out := filepath.Join(t.TempDir(), "snap")
			first := newRejecting()
			res1 := mustRun(t, testConfig(dir, out, 4), Options{Headers: first, Embedder: newBackends("v1", "m1").e})
			fallbacks := res1.Report.Models.RejectsTotal
			if fallbacks == 0 || first.asked.Load() != int64(fallbacks) {
				t.Fatalf("first run: got %d chunks asked and %d rejects, want every chunk rejected", first.asked.Load(), fallbacks)
			}
			if tt.edit {
				p := filepath.Join(dir, "rip-currents.md")
				writeFile(p, bytes.Replace(readFile(t, p), []byte(". "), []byte(", as lifeguards say. "), 1))
			}
			second := newRejecting()
			cfg := testConfig(dir, out, 4)
			cfg.RetryRejected = tt.retry
			res2 := mustRun(t, cfg, Options{Headers: second, Embedder: newBackends("v1", "m1").e, ToolVersion: "next"})
			if got := second.asked.Load(); !tt.want(fallbacks, got) {
				t.Errorf("second run: got %d chunks asked of %d fallbacks", got, fallbacks)
			}
			if got := res2.Manifest.Calls.HeaderCalls; got != 2*int(second.asked.Load()) {
				t.Errorf("manifest: got %d header calls, want %d", got, 2*second.asked.Load())
			}
			if got := res2.Report.Models.RejectsTotal; got != fallbacks {
				t.Errorf("second run: got %d rejects in the report, want %d (a reused fallback is still one)", got, fallbacks)
			}
			reused := 0
			for _, r := range res2.Report.Models.Rejects {
				if r.Reused {
					reused++
				}
				if !slices.Equal(r.Reasons, []string{prompt.ReasonNotJSON}) {
					t.Errorf("%s: got reasons %v, want [not-json]", r.Chunk, r.Reasons)
				}
			}
			if tt.retry && reused > 0 || !tt.retry && !tt.edit && reused != len(res2.Report.Models.Rejects) {
				t.Errorf("got %d of %d listed rejects marked reused", reused, len(res2.Report.Models.Rejects))
			}
			chunks, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range chunks {
				if c.HeaderSource != schema.HeaderExtractiveFallback || !slices.Equal(c.HeaderRejects, []string{prompt.ReasonNotJSON}) {
					t.Fatalf("%s: got header_source %q, header_rejects %v; want the fallback and its reason kept", c.Key(), c.HeaderSource, c.HeaderRejects)
				}
			}
		})
	}
}

// TestRejectedResume: a run killed part-way through answers that all fail
// the checks, started again, asks for no chunk twice: the fallbacks were
// journaled as they came. (Twelve kills during such a run had cost 384
// repeated calls.)
func TestRejectedResume(t *testing.T) {
	t.Parallel()
	clean := newRejecting()
	mustRun(t, testConfig("../corpus/ocean", filepath.Join(t.TempDir(), "clean"), 4), Options{Headers: clean, Embedder: newBackends("v1", "m1").e})

	out := filepath.Join(t.TempDir(), "snap")
	asked := int64(0)
	for i, after := range []int64{9, 23} { // two kills
		crashing := newRejecting()
		crashing.failAfter = after
		if _, err := runOut(context.Background(), testConfig("../corpus/ocean", out, 4), Options{Headers: crashing, Embedder: newBackends("v1", "m1").e}); !errors.Is(err, errServerDied) {
			t.Fatalf("kill %d: got %v, want the injected failure", i, err)
		}
		asked += min(crashing.asked.Load(), after) // the calls past the death were not answered
	}
	again := newRejecting()
	res := mustRun(t, testConfig("../corpus/ocean", out, 4), Options{Headers: again, Embedder: newBackends("v1", "m1").e})
	if got := asked + again.asked.Load(); got != clean.asked.Load() {
		t.Errorf("got %d chunks asked over two kills and the resume, want %d (one clean run)", got, clean.asked.Load())
	}
	if res.Manifest.Calls.FromJournal == 0 {
		t.Errorf("got nothing from the journal")
	}
}

// TestReportBounded: report.json keeps at most MaxRejectRaw bytes of each
// rejected answer and lists at most MaxListed of them, counting the rest.
// (Each raw answer was kept whole, up to 64 MiB each.)
func TestReportBounded(t *testing.T) {
	t.Parallel()
	h := newRejecting()
	res := mustRun(t, testConfig("../corpus/ocean", filepath.Join(t.TempDir(), "snap"), 4), Options{Headers: h, Embedder: newBackends("v1", "m1").e})
	m := res.Report.Models
	if m.RejectsTotal != int(h.asked.Load()) || m.RejectsTotal <= artifacts.MaxListed {
		t.Fatalf("got %d rejects counted for %d chunks asked, want them all, over %d", m.RejectsTotal, h.asked.Load(), artifacts.MaxListed)
	}
	if len(m.Rejects) != artifacts.MaxListed {
		t.Errorf("got %d rejects listed, want %d", len(m.Rejects), artifacts.MaxListed)
	}
	for _, r := range m.Rejects {
		if len(r.Raw) > artifacts.MaxRejectRaw || !strings.HasPrefix(h.raw, r.Raw) || r.RawBytes != len(h.raw) {
			t.Fatalf("%s: got %d bytes of raw answer (raw_bytes %d), want the first %d of %d", r.Chunk, len(r.Raw), r.RawBytes, artifacts.MaxRejectRaw, len(h.raw))
		}
	}
}
