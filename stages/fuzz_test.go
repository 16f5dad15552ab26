package stages

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// FuzzChunk: any input parses and chunks without panicking, and every chunk's
// span and lines lie inside the document, its text verbatim (table rows aside).
func FuzzChunk(f *testing.F) {
	seeds := []string{
		"# T\nSource: u\n\npara. Two.\n\n## H\n\n- a\n- b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"# T\nSource: u\nKind: safety\n\n```\n# x\n", "# T\nSource: u\n\n~~~\n~~~\n\nS\n---\n",
		"---\ntitle: T\nsource: u\nkind: lore\nbeach: b\n---\n> q\n> r\n", "# T\nSource: u\n\n1. a\n   1. b\n\n<div>\nx\n</div>\n",
	}
	for _, s := range seeds {
		f.Add(s, 40)
	}
	f.Fuzz(func(t *testing.T, src string, max int) {
		if max < 1 || max > 2000 {
			max = 40
		}
		for _, kind := range []string{"", "safety/"} {
			p := chunking.NewParser(".", corpus.Options{}).ParseBytes(kind+"f.md", []byte(src))
			ch, err := chunking.NewChunker(chunking.Config{Unit: "chars", Max: max, Overlap: max / 3, Min: max / 4}, "")
			if err != nil {
				t.Fatal(err)
			}
			chunks, diags := ch.Chunk(p)
			lines := strings.Count(p.Doc.Text, "\n") + 1
			for _, c := range chunks {
				if c.ByteStart < 0 || c.ByteEnd > len(p.Doc.Text) || c.ByteStart >= c.ByteEnd {
					t.Fatalf("chunk %d: span %d-%d outside 0-%d", c.Order, c.ByteStart, c.ByteEnd, len(p.Doc.Text))
				}
				if c.LineStart < 1 || c.LineEnd < c.LineStart || c.LineEnd > lines {
					t.Fatalf("chunk %d: lines %d-%d outside 1-%d", c.Order, c.LineStart, c.LineEnd, lines)
				}
				if c.Element != schema.ElementTableRow && c.Text != p.Doc.Text[c.ByteStart:c.ByteEnd] {
					t.Fatalf("chunk %d: text not verbatim", c.Order)
				}
				if !c.Element.Valid() {
					t.Fatalf("chunk %d: element %q", c.Order, c.Element)
				}
				Normaliser{}.Normalise(&c)
			}
			for _, d := range diags {
				if d.Line < 0 || d.Line > lines {
					t.Fatalf("diagnostic line %d outside 1-%d", d.Line, lines)
				}
			}
		}
	})
}
