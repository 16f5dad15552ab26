package html

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/schema"
)

// TestChunkFixtures runs every testdata/*.txtar: an HTML page, an optional
// "config" section (key=value lines over the chunk defaults) and the
// expected chunks in a "want" section, rewritten by -update. The goldens
// have the shape of the Markdown format's (testdata/chunk at the root), so
// the two read side by side.
func TestChunkFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
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
			name, src := fixturePage(t, ar)
			p := New(opt).Parse(name, src)
			ch, err := chunking.NewChunker(cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			chunks, diags := ch.Chunk(p.Body)
			checkPage(t, ch, p, chunks)
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

// fixtureConfig reads a fixture's config section, as the Markdown
// format's fixtures do.
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
			case "unit":
				cfg.Unit = v
			default:
				t.Fatalf("config key %q", k)
			}
		}
	}
	return cfg, opt, showDoc
}

func fixturePage(t *testing.T, ar *txtar.Archive) (string, []byte) {
	for _, f := range ar.Files {
		if strings.HasSuffix(f.Name, ".html") || strings.HasSuffix(f.Name, ".htm") {
			return f.Name, f.Data
		}
	}
	t.Fatal("fixture has no .html file")
	return "", nil
}

// renderDocument is the golden form of a page's metadata and of the
// markup removed from it.
func renderDocument(p corpus.Parsed) []byte {
	d := p.Doc
	line := map[string]any{"title": d.Title, "source": d.SourceURL, "lang": d.Lang, "lang_from": d.LangFrom, "kind": d.Kind}
	if d.Description != "" {
		line["description"] = d.Description
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
