package stages

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// countingHeaders stands in for a model header writer: extractive answers,
// but counted and journaled like paid ones.
type countingHeaders struct {
	*extractive.Extractive
	name  string
	calls atomic.Int64
}

func (h *countingHeaders) Name() string { return h.name }

// Offline: it stands in for a model server.
func (h *countingHeaders) Offline() bool { return false }

// Calls is true: every chunk is a call, as Header counts it.
func (h *countingHeaders) Calls(schema.Chunk) bool { return true }

func (h *countingHeaders) Header(ctx context.Context, doc schema.Document, c schema.Chunk) (models.Enrichment, error) {
	h.calls.Add(1)
	e, err := h.Extractive.Header(ctx, doc, c)
	e.Source, e.Calls = schema.HeaderModel, 1
	return e, err
}

// countingEmbedder stands in for a model embedder; it can fail after a
// number of calls.
type countingEmbedder struct {
	*lexical.Builtin
	name      string
	calls     atomic.Int64
	texts     atomic.Int64
	failAfter int64 // 0: never
}

var errServerDied = errors.New("injected: server died")

func (e *countingEmbedder) Name() string { return e.name }

// Offline: it stands in for a model server.
func (e *countingEmbedder) Offline() bool { return false }

func (e *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if n := e.calls.Add(1); e.failAfter > 0 && n > e.failAfter {
		return nil, errServerDied
	}
	v, err := e.Builtin.Embed(ctx, texts)
	if err == nil { // a call cancelled in flight returns nothing: it is not a result paid for
		e.texts.Add(int64(len(texts)))
	}
	return v, err
}

type testModels struct {
	h *countingHeaders
	e *countingEmbedder
}

func newBackends(prompt, model string) testModels {
	return testModels{
		h: &countingHeaders{Extractive: extractive.New(200), name: "fake-llm@sha256:1+" + prompt},
		e: &countingEmbedder{Builtin: lexical.NewBuiltin(1024), name: "fake-embed:" + model},
	}
}

func (b testModels) opts() Options { return Options{Headers: b.h, Embedder: b.e} }

// TestReuse: a re-run pays only for what changed.
func TestReuse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		edit        func(t *testing.T, dir string) // the corpus change between runs
		prompt      string                         // header writer version of the second run
		model       string                         // embedder of the second run
		wantHeaders func(total int) bool
		wantTexts   func(total int) bool
		identical   bool   // chunks.parquet byte-identical to the first run's
		tool        string // the second run's tool version ("" as the first)
		republished bool   // the unchanged fast path: the previous files, not a rebuild
	}{
		{
			name: "unchanged", prompt: "v1", model: "m1", republished: true,
			wantHeaders: func(n int) bool { return n == 0 }, wantTexts: func(n int) bool { return n == 0 }, identical: true,
		},
		{
			// another build of the tool: no fast path, every chunk rebuilt,
			// every header and vector reused, the same bytes
			name: "unchanged, new tool version", prompt: "v1", model: "m1", tool: "next",
			wantHeaders: func(n int) bool { return n == 0 }, wantTexts: func(n int) bool { return n == 0 }, identical: true,
		},
		{
			name: "one paragraph edited", prompt: "v1", model: "m1",
			edit: func(t *testing.T, dir string) {
				p := filepath.Join(dir, "rip-currents.md")
				b := readFile(t, p)
				i := bytes.Index(b, []byte("\n\n")) // the first paragraph after the header lines
				j := bytes.Index(b[i+2:], []byte("."))
				edited := append(append(append([]byte{}, b[:i+2+j]...), []byte(", as lifeguards say")...), b[i+2+j:]...)
				writeFile(p, edited)
			},
			wantHeaders: func(n int) bool { return n >= 1 && n <= 2 }, wantTexts: func(n int) bool { return n >= 1 && n <= 2 },
		},
		{
			name: "prompt changed", prompt: "v2", model: "m1",
			wantHeaders: func(n int) bool { return n > 100 }, wantTexts: func(n int) bool { return n == 0 }, identical: true,
		},
		{
			name: "embedder changed", prompt: "v1", model: "m2",
			wantHeaders: func(n int) bool { return n == 0 }, wantTexts: func(n int) bool { return n > 100 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpus(t, "../corpus/ocean", nil)
			out := filepath.Join(t.TempDir(), "snap")
			first := newBackends("v1", "m1")
			res1 := mustRun(t, testConfig(dir, out, 4), first.opts())
			if got := first.h.calls.Load(); got == 0 || first.e.texts.Load() != int64(res1.Manifest.Counts.Chunks) {
				t.Fatalf("first run: %d header calls, %d texts embedded for %d chunks", got, first.e.texts.Load(), res1.Manifest.Counts.Chunks)
			}
			before := readFile(t, filepath.Join(out, artifacts.ChunksFile))
			if tt.edit != nil {
				tt.edit(t, dir)
			}
			second := newBackends(tt.prompt, tt.model)
			opt := second.opts()
			opt.ToolVersion = tt.tool
			res2 := mustRun(t, testConfig(dir, out, 4), opt)
			if got := res2.Report.Stages[0].Name == "unchanged"; got != tt.republished {
				t.Errorf("got republished %v (stages %+v), want %v", got, res2.Report.Stages, tt.republished)
			}
			h, e := int(second.h.calls.Load()), int(second.e.texts.Load())
			if tt.wantHeaders != nil && !tt.wantHeaders(h) || tt.wantTexts != nil && !tt.wantTexts(e) {
				t.Errorf("second run: got %d header calls and %d texts embedded", h, e)
			}
			if m := res2.Manifest.Calls; m.HeaderCalls != h || m.HeadersReused+h < res2.Manifest.Counts.Chunks {
				t.Errorf("manifest calls %+v disagree with %d header calls made", m, h)
			}
			after := readFile(t, filepath.Join(out, artifacts.ChunksFile))
			if tt.identical && !bytes.Equal(before, after) {
				t.Errorf("chunks.parquet changed, want byte-identical")
			}
			if res2.Manifest.Previous == nil || res2.Manifest.Previous.RunID != res1.Manifest.RunID {
				t.Errorf("got previous %+v, want a link to run %s", res2.Manifest.Previous, res1.Manifest.RunID)
			}
		})
	}
}

// TestReuseVersion2: a snapshot of the release before lead_in (schema 2)
// is a previous snapshot like any other: a chunk whose text, section and
// lead-in are what they were costs no call, so an upgrade pays only for the
// chunks the new chunker cut differently.
func TestReuseVersion2(t *testing.T) {
	t.Parallel()
	dir := copyCorpus(t, "../testdata/v2snapshot/corpus", nil)
	out := filepath.Join(t.TempDir(), "snap")
	if err := os.CopyFS(out, os.DirFS("../testdata/v2snapshot/snap")); err != nil {
		t.Fatal(err)
	}
	old, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
	if err != nil {
		t.Fatalf("a version 2 chunks.parquet: %v", err)
	}
	seen := map[string]bool{}
	for _, c := range old {
		if c.LeadIn != "" {
			t.Fatalf("%s: got lead-in %q from a file without the column", c.Key(), c.LeadIn)
		}
		seen[snapshotKey(c)] = true
	}
	b := newBackends("v1", "m1")
	res := mustRun(t, testConfig(dir, out, 2), b.opts())
	if res.Manifest.SchemaVersion != artifacts.SchemaVersion || res.Manifest.Previous == nil {
		t.Fatalf("got schema %s, previous %+v; want %s and the version 2 snapshot", res.Manifest.SchemaVersion, res.Manifest.Previous, artifacts.SchemaVersion)
	}
	now, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for _, c := range now {
		if !seen[snapshotKey(c)] {
			changed++
		}
	}
	t.Logf("%d of %d chunks cut differently", changed, len(now))
	if got := int(b.h.calls.Load()); got != changed || changed == len(now) {
		t.Errorf("got %d header calls, want %d: one per chunk the new chunker cut differently (of %d)", got, changed, len(now))
	}
}

// snapshotKey is what a header is reused under, less the run-wide prefix.
func snapshotKey(c schema.Chunk) string {
	return c.DocTitle + "\x00" + c.ContentHash + "\x00" + strings.Join(c.SectionPath, "\x1f") + "\x00" + string(c.Element) + "\x00" + c.LeadIn
}

// TestReuseDeletedDocument: chunks of a deleted document are gone, and the
// audit log says they were superseded.
func TestReuseDeletedDocument(t *testing.T) {
	t.Parallel()
	dir := copyCorpus(t, "../corpus/ocean", nil)
	out := filepath.Join(t.TempDir(), "snap")
	mustRun(t, testConfig(dir, out, 2), newBackends("v1", "m1").opts())
	if err := os.Remove(filepath.Join(dir, "tides.md")); err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, testConfig(dir, out, 2), newBackends("v1", "m1").opts())
	chunks, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if c.DocPath == "tides.md" {
			t.Fatalf("got a chunk of the deleted tides.md")
		}
	}
	if res.Manifest.Calls.Superseded == 0 {
		t.Errorf("got 0 superseded chunks, want the deleted document's")
	}
	audit := string(readFile(t, filepath.Join(out, artifacts.AuditFile)))
	if strings.Count(audit, `"run_completed"`) != 2 || !strings.Contains(audit, `"chunks_superseded"`) || !strings.Contains(audit, res.Manifest.RunID) {
		t.Errorf("audit.jsonl lacks the runs or the superseded chunks:\n%s", audit)
	}
	if strings.Contains(audit, "Tides") || strings.Contains(audit, "tide") {
		t.Errorf("audit.jsonl holds text, want only ids and hashes")
	}
}

// TestResume: a run killed part-way and started again makes, in all, the
// calls of one clean run: nothing finished is paid for twice.
func TestResume(t *testing.T) {
	t.Parallel()
	clean := newBackends("v1", "m1")
	res := mustRun(t, testConfig("../corpus/ocean", filepath.Join(t.TempDir(), "clean"), 4), clean.opts())
	want := clean.e.texts.Load()

	out := filepath.Join(t.TempDir(), "snap")
	crashing := newBackends("v1", "m1")
	crashing.e.failAfter = 7
	if _, err := runOut(context.Background(), testConfig("../corpus/ocean", out, 4), crashing.opts()); !errors.Is(err, errServerDied) {
		t.Fatalf("got %v, want the injected failure", err)
	}
	if _, err := os.Stat(publish.OutTarget(out, "").Journal()); err != nil {
		t.Fatalf("no journal after the crash: %v", err)
	}
	again := newBackends("v1", "m1")
	res2 := mustRun(t, testConfig("../corpus/ocean", out, 4), again.opts())
	if got := crashing.e.texts.Load() + again.e.texts.Load(); got != want {
		t.Errorf("got %d texts embedded over the crash and the resume, want %d (one clean run)", got, want)
	}
	if got := crashing.h.calls.Load() + again.h.calls.Load(); got != clean.h.calls.Load() {
		t.Errorf("got %d header calls over both runs, want %d", got, clean.h.calls.Load())
	}
	if res2.Manifest.Calls.FromJournal == 0 {
		t.Errorf("got nothing from the journal")
	}
	if _, err := os.Stat(publish.OutTarget(out, "").Journal()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("journal left after a published run: %v", err)
	}
	if res.Manifest.Counts.Chunks != res2.Manifest.Counts.Chunks {
		t.Errorf("got %d chunks after resume, want %d", res2.Manifest.Counts.Chunks, res.Manifest.Counts.Chunks)
	}
}

// TestCorruptPrevious: a previous snapshot that is not whole is reported and
// ignored, never trusted.
func TestCorruptPrevious(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		corrupt func(t *testing.T, dir string)
	}{
		{"truncated chunks.parquet", func(t *testing.T, dir string) {
			p := filepath.Join(dir, artifacts.ChunksFile)
			b := readFile(t, p)
			writeFile(p, b[:len(b)/2])
		}},
		{"wrong schema version", func(t *testing.T, dir string) {
			p := filepath.Join(dir, artifacts.ManifestFile)
			writeFile(p, bytes.Replace(readFile(t, p), []byte(`"schema_version": "`+artifacts.SchemaVersion+`"`), []byte(`"schema_version": "0"`), 1))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "snap")
			mustRun(t, testConfig(fixtureCorpus, out, 2), newBackends("v1", "m1").opts())
			tt.corrupt(t, out)
			b := newBackends("v1", "m1")
			res := mustRun(t, testConfig(fixtureCorpus, out, 2), b.opts())
			found := false
			for _, d := range res.Report.Diagnostics {
				found = found || d.Code == "previous-ignored"
			}
			if !found {
				t.Errorf("got diagnostics %v, want previous-ignored", res.Report.Diagnostics)
			}
			if b.e.texts.Load() != int64(res.Manifest.Counts.Chunks) || res.Manifest.Previous != nil {
				t.Errorf("got %d texts embedded for %d chunks (previous %+v), want everything redone", b.e.texts.Load(), res.Manifest.Counts.Chunks, res.Manifest.Previous)
			}
		})
	}
}
