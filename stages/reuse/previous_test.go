package reuse

import (
	"context"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/searchtext"
)

// TestReuseSchema2: a snapshot of schema 2 (written by the build before
// doc_id took the source, testdata/snapshot-v2) is reused: its headers and
// vectors are keyed as a schema 3 snapshot's are, so an upgrade pays for no
// call again; its rows' new ids are the run's business.
func TestReuseSchema2(t *testing.T) {
	p, err := OpenPrevious(context.Background(), "../../testdata/snapshot-v2")
	if err != nil {
		t.Fatalf("got %v, want the schema 2 snapshot opened for reuse", err)
	}
	defer p.Close()
	if p.Manifest.SchemaVersion != "2" {
		t.Fatalf("got schema %s, want the fixture of schema 2", p.Manifest.SchemaVersion)
	}
	headers, vectors := 0, 0
	for _, path := range []string{"pt-BR/lore/joaquina.md", "pt-BR/temperatura.md", "safety/rules.md", "waves.md"} {
		ru, _, err := p.ForDoc(path)
		if err != nil {
			t.Fatal(err)
		}
		ru = ru.Indexed()
		headers += len(ru.Headers)
		vectors += len(ru.Vectors)
	}
	if want := p.Manifest.Counts.Chunks; headers != want || vectors != want {
		t.Errorf("got %d headers and %d vectors offered, want %d of each", headers, vectors, want)
	}
}

// TestPreviousOpensRowsWhenAsked: opening a previous snapshot for reuse
// reads its manifest and checks its files, but opens chunks.parquet (whose
// parquet-go view holds about 53 KB a row group) only when a document's rows
// are first asked for: an unchanged night, which republishes the snapshot,
// never opens it. Asking for rows without vectors after that is refused.
func TestPreviousOpensRowsWhenAsked(t *testing.T) {
	p, err := OpenPrevious(context.Background(), "../../testdata/snapshot-v2")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.File() != nil {
		t.Fatal("chunks.parquet opened before any row was asked for")
	}
	if _, _, err := p.ForDoc("waves.md"); err != nil {
		t.Fatal(err)
	}
	if p.File() == nil {
		t.Fatal("chunks.parquet not open after ForDoc")
	}
	if err := p.WithoutVectors(context.Background()); err == nil {
		t.Error("WithoutVectors after rows were read: got no error")
	}
}

// TestVectorsKeyedByWhatWasEmbedded: a previous row's vector is offered
// under the text its embedder read: its search_text (schema 5), or its text
// verbatim (before schema 5, no search_text). A new run's chunk finds it
// when its own embed input is that text, so an upgrade embeds again only
// the chunks whose text Clean changes (a link, a heading's hashes).
func TestVectorsKeyedByWhatWasEmbedded(t *testing.T) {
	chunk := func(text string) schema.Chunk {
		return schema.Chunk{SectionPath: []string{"Install"}, ContextHeader: "Docs › Install: how.", Text: text}
	}
	stored := func(c schema.Chunk) schema.Chunk { c.SearchText = searchtext.Of(c); return c }
	tests := []struct {
		name   string
		row    schema.Chunk // as the previous snapshot holds it
		reused bool         // a new run's same chunk finds its vector
	}{
		{"schema 5, a link", stored(chunk("See [the page](/x).")), true},
		{"schema 5, plain", stored(chunk("Plain words.")), true},
		{"schema 4, plain", chunk("Plain words."), true},
		{"schema 4, a link: embedded verbatim", chunk("See [the page](/x)."), false},
		{"schema 4, heading hashes", chunk("## Linux\nRun it."), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row := tt.row
			row.Embedding = []float32{0.6, 0.8}
			offer := Offer{Rows: []schema.Chunk{row}, keys: artifacts.CacheKeys{Vector: "embedder"}, dims: 2}.Indexed()
			now := chunk(tt.row.Text)
			_, reused := offer.Vectors[VectorKey("embedder", lexical.EmbedInput(now))]
			if reused != tt.reused {
				t.Errorf("got reused %v, want %v (offered %d vectors)", reused, tt.reused, len(offer.Vectors))
			}
			if _, ok := offer.Vectors[VectorKey("embedder", lexical.EmbeddedInput(row))]; !ok {
				t.Errorf("got no vector under the text its embedder read, %q", lexical.EmbeddedInput(row))
			}
		})
	}
}
