package reuse

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
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

// TestPreviousRowsAgree: a previous snapshot whose manifest disagrees with
// its chunks.parquet on the rows is not reused: refused when it is opened
// (VerifyFiles), where the manifest's counts disagree with what its run
// recorded, or when its rows are first asked for, where the manifest and
// the audit log agree with each other and not with the file.
func TestPreviousRowsAgree(t *testing.T) {
	tests := []struct {
		name       string
		audit      bool // the audit log says 13 chunks too, its hash in the manifest mended
		forDocWant string
	}{
		{"the manifest's count disagrees with the run's", false, ""},
		{"the file holds other rows", true, "holds 12 rows, its manifest says 13"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("../../testdata/snapshot-v2")); err != nil {
				t.Fatal(err)
			}
			m, err := artifacts.ReadManifest(dir)
			if err != nil {
				t.Fatal(err)
			}
			m.Counts.Chunks = 13
			fi := m.Files[artifacts.ChunksFile]
			fi.Rows = 13
			m.Files[artifacts.ChunksFile] = fi
			if tt.audit {
				path := filepath.Join(dir, artifacts.AuditFile)
				b, err := os.ReadFile(path)
				if err != nil || !bytes.Contains(b, []byte(`"chunks":12`)) {
					t.Fatalf("the fixture's audit log: %v, want one that records 12 chunks", err)
				}
				if err := os.WriteFile(path, bytes.Replace(b, []byte(`"chunks":12`), []byte(`"chunks":13`), 1), 0o644); err != nil {
					t.Fatal(err)
				}
				info, err := artifacts.Describe(path)
				if err != nil {
					t.Fatal(err)
				}
				m.Files[artifacts.AuditFile] = info
			}
			if err := artifacts.WriteJSON(filepath.Join(dir, artifacts.ManifestFile), m); err != nil {
				t.Fatal(err)
			}
			p, err := OpenPrevious(context.Background(), dir)
			if !tt.audit {
				if err == nil {
					p.Close()
					t.Fatal("opened for reuse, want it refused")
				}
				return
			}
			if err != nil {
				t.Fatalf("refused at open: %v", err)
			}
			defer p.Close()
			if _, _, err := p.ForDoc("waves.md"); err == nil || !strings.Contains(err.Error(), tt.forDocWant) {
				t.Fatalf("ForDoc: got %v, want an error saying %q", err, tt.forDocWant)
			}
			if _, err := p.Rest(); err == nil {
				t.Error("Rest after a failed open: got no error")
			}
		})
	}
}
