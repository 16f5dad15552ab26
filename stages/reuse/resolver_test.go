package reuse

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// modelWriter stands in for a model header writer: it calls for every
// chunk but a table row.
type modelWriter struct{ *extractive.Extractive }

func (modelWriter) Name() string { return "fake-llm@sha256:1+v1" }

func (modelWriter) Offline() bool { return false }

func (modelWriter) Calls(c schema.Chunk) bool { return c.Element != schema.ElementTableRow }

func (w modelWriter) Header(ctx context.Context, doc schema.Document, c schema.Chunk) (models.Enrichment, error) {
	return w.Extractive.Header(ctx, doc, c)
}

// modelEmbedder stands in for a model embedder (not offline).
type modelEmbedder struct{ *lexical.Builtin }

func (modelEmbedder) Name() string { return "fake-embed" }

func (modelEmbedder) Offline() bool { return false }

// TestResolver: a header or vector comes from the previous snapshot, else
// from the journal (only a model's: an offline writer's is never journaled),
// else it is a miss, with the writer's word on whether it costs a call; a
// previous fallback is asked again under --retry-rejected, a journaled one
// is not.
func TestResolver(t *testing.T) {
	doc := schema.Document{Title: "Flags"}
	prose := schema.Chunk{ContentHash: "h1", Text: "A red flag means no swimming.", Element: schema.ElementParagraph}
	row := schema.Chunk{ContentHash: "h2", Text: "| Red | no swimming |", Element: schema.ElementTableRow}
	fallback := schema.Chunk{ContentHash: "h3", Text: "Yellow: take care.", Element: schema.ElementParagraph}
	journaled := schema.Chunk{ContentHash: "h4", Text: "Purple: marine life.", Element: schema.ElementParagraph}

	model := modelWriter{extractive.New(200)}
	embed := modelEmbedder{lexical.NewBuiltin(8)}
	offline := extractive.New(200)
	open := func(t *testing.T, headers models.HeaderWriter, retry bool) (*Resolver, Offer) {
		t.Helper()
		keys := CacheKeys("writer", 200, "embedder", 8) // the same for each writer: the journal alone tells them apart
		j, err := OpenJournal(filepath.Join(t.TempDir(), "journal.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { j.Close() })
		r, w := NewResolver(keys, headers, embed, j, retry), NewResolver(keys, model, embed, j, false)
		prev := Offer{Headers: map[string]Enrichment{}, Vectors: map[string][]float32{}}
		prev.Headers[HeaderKey(keys.Header, doc.Title, prose)] = Enrichment{Header: "from the previous snapshot"}
		prev.Headers[HeaderKey(keys.Header, doc.Title, fallback)] = Enrichment{Header: "fell back", Source: schema.HeaderExtractiveFallback}
		prev.Vectors[VectorKey(keys.Vector, "prev input")] = make([]float32, 8)
		// What an interrupted run with a model journaled.
		if err := w.PutHeader(HeaderKey(keys.Header, doc.Title, journaled), Enrichment{Header: "journaled", Source: schema.HeaderModel}); err != nil {
			t.Fatal(err)
		}
		if err := w.PutHeader(HeaderKey(keys.Header, doc.Title, fallback), Enrichment{Header: "journaled fallback", Source: schema.HeaderExtractiveFallback}); err != nil {
			t.Fatal(err)
		}
		if err := w.PutVector(VectorKey(keys.Vector, "journal input"), make([]float32, 8)); err != nil {
			t.Fatal(err)
		}
		return r, prev
	}
	tests := []struct {
		name       string
		headers    models.HeaderWriter
		retry      bool
		c          schema.Chunk
		wantFrom   From
		wantHeader string
		wantCall   bool
	}{
		{name: "previous", headers: model, c: prose, wantFrom: FromPrevious, wantHeader: "from the previous snapshot"},
		{name: "journal", headers: model, c: journaled, wantFrom: FromJournal, wantHeader: "journaled"},
		{name: "miss, a call", headers: model, c: schema.Chunk{ContentHash: "h5", Text: "New text.", Element: schema.ElementParagraph}, wantFrom: Miss, wantCall: true},
		{name: "miss, no call for a table row", headers: model, c: row, wantFrom: Miss},
		{name: "previous fallback reused", headers: model, c: fallback, wantFrom: FromPrevious, wantHeader: "fell back"},
		{name: "previous fallback retried, the journal's answer taken", headers: model, retry: true, c: fallback, wantFrom: FromJournal, wantHeader: "journaled fallback"},
		{name: "offline: the journal is not read", headers: offline, c: journaled, wantFrom: Miss},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, prev := open(t, tc.headers, tc.retry)
			h := r.Header(prev, doc, tc.c)
			if h.From != tc.wantFrom || h.Enrichment.Header != tc.wantHeader || h.Call != tc.wantCall {
				t.Errorf("got from %d, header %q, call %v, want from %d, header %q, call %v", h.From, h.Enrichment.Header, h.Call, tc.wantFrom, tc.wantHeader, tc.wantCall)
			}
		})
	}
	r, prev := open(t, model, false)
	for _, tc := range []struct {
		input string
		want  From
	}{{"prev input", FromPrevious}, {"journal input", FromJournal}, {"new input", Miss}} {
		if _, v, from := r.Vector(prev, tc.input); from != tc.want || (from != Miss) != (v != nil) {
			t.Errorf("vector of %q: got from %d (vector %v), want from %d", tc.input, from, v != nil, tc.want)
		}
	}
}
