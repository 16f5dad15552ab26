package chunking

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// TestChunkFixtures runs every testdata/chunk/*.txtar: a Markdown file, an
// optional "config" section (key=value lines over the chunk defaults) and the
// expected chunks in a "want" section, rewritten by -update.
func TestChunkFixtures(t *testing.T) {
	files, err := filepath.Glob("../testdata/chunk/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, opt, showDoc := fixtureConfig(t, ar)
			name, src := fixtureDoc(t, ar)
			p := NewParser(".", opt).ParseBytes(name, src)
			ch, err := NewChunker(cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			chunks, diags := ch.Chunk(p)
			checkInvariants(t, ch, p, chunks)
			for i := range chunks { // the header a reader (and the embedder) sees above each chunk
				chunks[i].ContextHeader = models.ExtractiveHeader(p.Doc.Title, chunks[i], models.DefaultHeaderChars)
			}
			got := renderChunks(chunks, append(p.Diags, diags...))
			if showDoc {
				got = append(renderDocument(p), got...)
			}
			golden.CheckSection(t, file, ar, "want", got)
		})
	}
}

// fixtureConfig reads a fixture's config section: the chunk budget, the
// corpus options of a documentation site (source_url_template,
// metadata_keys, require_source=false) and document=true, which renders the
// document's metadata and the markup removed before the chunks.
func fixtureConfig(t *testing.T, ar *txtar.Archive) (Config, corpus.Options, bool) {
	cfg := DefaultConfig()
	opt := corpus.Options{SourceLabel: "fixtures"}
	showDoc := false
	for _, f := range ar.Files {
		if f.Name != "config" {
			continue
		}
		for _, line := range strings.Fields(string(f.Data)) {
			k, v, _ := strings.Cut(line, "=")
			n, _ := strconv.Atoi(v)
			switch k {
			case "source_url_template":
				opt.SourceURLTemplate = v
			case "metadata_keys":
				opt.MetadataKeys = strings.Split(v, ",")
			case "require_source":
				opt.SourceOptional = v == "false"
			case "document":
				showDoc = v == "true"
			case "max":
				cfg.Max = n
			case "min":
				cfg.Min = n
			case "overlap":
				cfg.Overlap = n
			case "unit":
				cfg.Unit = v
			default:
				t.Fatalf("config key %q", k)
			}
		}
	}
	return cfg, opt, showDoc
}

// renderDocument is the golden form of a document's metadata and of the
// markup removed from it.
func renderDocument(p Parsed) []byte {
	d := p.Doc
	line := map[string]any{"title": d.Title, "source": d.SourceURL, "lang": d.Lang, "lang_from": d.LangFrom}
	if d.Description != "" {
		line["description"] = d.Description
	}
	if d.Draft {
		line["draft"] = true
	}
	if len(d.Metadata) > 0 {
		line["metadata"] = d.Metadata
	}
	if len(p.Markup) > 0 {
		line["markup_removed"] = p.Markup
	}
	enc, _ := json.Marshal(line)
	return append(append([]byte("document: "), enc...), '\n')
}

func fixtureDoc(t *testing.T, ar *txtar.Archive) (string, []byte) {
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".md") || strings.HasSuffix(f.Name, ".mdx") {
			return f.Name, f.Data
		}
	}
	t.Fatal("fixture has no .md file")
	return "", nil
}

// renderChunks is the golden form of chunks: one JSON object a line, then
// the diagnostics.
func renderChunks(chunks []schema.Chunk, diags []schema.Diagnostic) []byte {
	var b bytes.Buffer
	for _, c := range chunks {
		line := map[string]any{
			"order": c.Order, "kind": c.Kind, "element": c.Element, "section": c.SectionPath,
			"lines": fmt.Sprintf("%d-%d", c.LineStart, c.LineEnd), "bytes": fmt.Sprintf("%d-%d", c.ByteStart, c.ByteEnd),
			"tokens": c.TokenCount, "text": c.Text,
		}
		if c.Safety {
			line["safety"] = true
		}
		if c.BeachID != "" {
			line["beach"] = c.BeachID
		}
		if c.Oversize {
			line["oversize"] = true
		}
		if c.LeadIn != "" {
			line["lead_in"] = c.LeadIn
		}
		if c.ContextHeader != "" {
			line["header"] = c.ContextHeader
		}
		if len(c.Metadata) > 0 {
			line["metadata"] = c.Metadata
		}
		enc, _ := json.Marshal(line)
		b.Write(enc)
		b.WriteByte('\n')
	}
	for _, d := range diags {
		fmt.Fprintf(&b, "diagnostic: %s\n", d)
	}
	return b.Bytes()
}

func TestChunkCRLFMatchesLF(t *testing.T) {
	ar, err := txtar.ParseFile("../testdata/chunk/prose-headings.txtar")
	if err != nil {
		t.Fatal(err)
	}
	name, src := fixtureDoc(t, ar)
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	ch, _ := NewChunker(Config{Unit: "chars", Max: 300}, "")
	p := NewParser(".", corpus.Options{})
	a, _ := ch.Chunk(p.ParseBytes(name, src))
	b, _ := ch.Chunk(p.ParseBytes(name, crlf))
	if ga, gb := renderChunks(a, nil), renderChunks(b, nil); !bytes.Equal(ga, gb) {
		t.Errorf("CRLF input chunks differently:\ngot:\n%s\nwant:\n%s", gb, ga)
	}
}

func TestChunkIDs(t *testing.T) {
	src := []byte("# T\nSource: https://x\n\nSame paragraph.\n\n## B\n\nSame paragraph.\n")
	p := NewParser(".", corpus.Options{}).ParseBytes("a.md", src)
	ch, _ := NewChunker(Config{Unit: "chars", Max: 700}, "tenant-a")
	cs, _ := ch.Chunk(p)
	if len(cs) != 2 {
		t.Fatalf("got %d chunks, want 2", len(cs))
	}
	if cs[0].ContentHash != cs[1].ContentHash {
		t.Errorf("got hashes %s, %s, want equal for equal text", cs[0].ContentHash, cs[1].ContentHash)
	}
	if cs[0].ChunkID == cs[1].ChunkID {
		t.Errorf("got equal chunk ids %s for two rows, want unique", cs[0].ChunkID)
	}
	other, _ := NewChunker(Config{Unit: "chars", Max: 700}, "tenant-b")
	cs2, _ := other.Chunk(p)
	if cs2[0].ChunkID == cs[0].ChunkID {
		t.Errorf("got the same chunk id for two tenants")
	}
	again, _ := ch.Chunk(NewParser(".", corpus.Options{}).ParseBytes("a.md", src))
	if again[0].ChunkID != cs[0].ChunkID || again[0].DocID != cs[0].DocID {
		t.Errorf("got ids %s/%s on a second run, want %s/%s", again[0].ChunkID, again[0].DocID, cs[0].ChunkID, cs[0].DocID)
	}
}

func TestNewChunkerValidates(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"zero max", Config{Unit: "chars", Max: 0}},
		{"overlap equal to max", Config{Unit: "chars", Max: 10, Overlap: 10}},
		{"negative overlap", Config{Unit: "chars", Max: 10, Overlap: -1}},
		{"min over max", Config{Unit: "chars", Max: 10, Min: 11}},
		{"unknown unit", Config{Unit: "words", Max: 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewChunker(tt.cfg, ""); err == nil {
				t.Errorf("got no error for %+v, want one", tt.cfg)
			}
		})
	}
}

// TestChunkIDName: a chunk id is the UUIDv5 of
// tenant\x00source\x00path\x00hash\x00repeat, also when one document's ids
// reuse a hasher and a buffer.
func TestChunkIDName(t *testing.T) {
	tests := []struct {
		name, tenant, source, path, hash string
		repeat                           int
	}{
		{"no tenant", "", "docs", "a.md", "abc", 0},
		{"tenant", "tenant-a", "books", "docs/praia/ondas.md", "e3b0c442", 1},
		{"repeat over 9", "t", "", "a.md", "abc", 12},
		{"long path", "t", "repo", strings.Repeat("pasta/", 40) + "ção.md", strings.Repeat("f", 64), 3},
	}
	ids := newIdentities("", "", "")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := uuid.NewSHA1(idSpace, []byte(tt.tenant+"\x00"+tt.source+"\x00"+tt.path+"\x00"+tt.hash+"\x00"+strconv.Itoa(tt.repeat))).String()
			if got := ChunkID(tt.tenant, tt.source, tt.path, tt.hash, tt.repeat); got != want {
				t.Errorf("ChunkID: got %s, want %s", got, want)
			}
			if got := ids.chunkID(tt.tenant, tt.source, tt.path, tt.hash, tt.repeat); got != want {
				t.Errorf("reused: got %s, want %s", got, want)
			}
		})
	}
}

// TestDocIDPerSource: two sources of one tenant that hold the same path
// name two documents (their rows collided in pgvector), and the tenant is
// part of the id too; the name is pinned.
func TestDocIDPerSource(t *testing.T) {
	const tenant = "6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50"
	books, repo := DocID(tenant, "books", "README.md"), DocID(tenant, "repo", "README.md")
	if books == repo {
		t.Errorf("README.md of books and of repo: got one doc_id %s, want two", books)
	}
	if other := DocID("", "books", "README.md"); other == books {
		t.Errorf("no tenant and tenant %s: got one doc_id %s, want two", tenant, books)
	}
	want := uuid.NewSHA1(idSpace, []byte("doc\x00"+tenant+"\x00books\x00README.md")).String()
	if books != want {
		t.Errorf("got %s, want %s", books, want)
	}
}
