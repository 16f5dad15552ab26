package markdown

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/models/extractive"

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
	files, err := filepath.Glob("../../testdata/chunk/*.txtar")
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
			opt.Root = fixtureRoot(t, ar, name)
			p := New(opt).Parse(name, src)
			ch, err := chunking.NewChunker(cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			chunks, diags := ch.Chunk(p.Body)
			checkInvariants(t, ch, p, chunks)
			for i := range chunks { // the header a reader (and the embedder) sees above each chunk
				chunks[i].ContextHeader = extractive.Header(p.Doc.Title, chunks[i], models.DefaultHeaderChars)
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
func fixtureConfig(t *testing.T, ar *txtar.Archive) (chunking.Config, corpus.Options, bool) {
	cfg := chunking.DefaultConfig()
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
func renderDocument(p corpus.Parsed) []byte {
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
	if p.Body != nil && len(p.Body.Markup) > 0 {
		line["markup_removed"] = p.Body.Markup
	}
	enc, _ := json.Marshal(line)
	return append(append([]byte("document: "), enc...), '\n')
}

// fixtureRoot lays a fixture's other files (the files its document
// includes) out in a corpus folder with the document, or is "" when it has
// none: includes are expanded only from a corpus.
func fixtureRoot(t *testing.T, ar *txtar.Archive, doc string) string {
	root := ""
	for _, f := range ar.Files {
		if f.Name == "config" || f.Name == "want" || f.Name == doc {
			continue
		}
		if root == "" {
			root = t.TempDir()
		}
		for _, g := range []txtar.File{f, {Name: doc, Data: fixtureData(ar, doc)}} {
			p := filepath.Join(root, filepath.FromSlash(g.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, g.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root
}

func fixtureData(ar *txtar.Archive, name string) []byte {
	for _, f := range ar.Files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
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
	ar, err := txtar.ParseFile("../../testdata/chunk/prose-headings.txtar")
	if err != nil {
		t.Fatal(err)
	}
	name, src := fixtureDoc(t, ar)
	crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
	ch, _ := chunking.NewChunker(chunking.Config{Unit: "chars", Max: 300}, "")
	p := New(corpus.Options{})
	a, _ := ch.Chunk(p.Parse(name, src).Body)
	b, _ := ch.Chunk(p.Parse(name, crlf).Body)
	if ga, gb := renderChunks(a, nil), renderChunks(b, nil); !bytes.Equal(ga, gb) {
		t.Errorf("CRLF input chunks differently:\ngot:\n%s\nwant:\n%s", gb, ga)
	}
}

func TestChunkIDs(t *testing.T) {
	src := []byte("# T\nSource: https://x\n\nSame paragraph.\n\n## B\n\nSame paragraph.\n")
	p := New(corpus.Options{}).Parse("a.md", src)
	ch, _ := chunking.NewChunker(chunking.Config{Unit: "chars", Max: 700}, "tenant-a")
	cs, _ := ch.Chunk(p.Body)
	if len(cs) != 2 {
		t.Fatalf("got %d chunks, want 2", len(cs))
	}
	if cs[0].ContentHash != cs[1].ContentHash {
		t.Errorf("got hashes %s, %s, want equal for equal text", cs[0].ContentHash, cs[1].ContentHash)
	}
	if cs[0].ChunkID == cs[1].ChunkID {
		t.Errorf("got equal chunk ids %s for two rows, want unique", cs[0].ChunkID)
	}
	other, _ := chunking.NewChunker(chunking.Config{Unit: "chars", Max: 700}, "tenant-b")
	cs2, _ := other.Chunk(p.Body)
	if cs2[0].ChunkID == cs[0].ChunkID {
		t.Errorf("got the same chunk id for two tenants")
	}
	again, _ := ch.Chunk(New(corpus.Options{}).Parse("a.md", src).Body)
	if again[0].ChunkID != cs[0].ChunkID || again[0].DocID != cs[0].DocID {
		t.Errorf("got ids %s/%s on a second run, want %s/%s", again[0].ChunkID, again[0].DocID, cs[0].ChunkID, cs[0].DocID)
	}
}

// markdownOnly is the list of formats of this package's tests.
var markdownOnly = corpus.Formats{{Name: "markdown", Extensions: []string{".md", ".markdown", ".mdx"}, New: New}}
