package stages

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
)

// FuzzDocument runs the whole per-document path — bytes checks, front
// matter or header lines, limits, Markdown parse, chunking, normalising —
// on any input: it must never panic, every chunk's span and lines lie inside
// the document with its text verbatim (table rows aside), and a document
// over a limit is rejected, not parsed. CI runs it for a bounded time
// (.ci/run); the seeds are the shapes that once made the parser slow.
func FuzzDocument(f *testing.F) {
	seeds := []string{
		"# T\nSource: u\n\npara. Two.\n\n## H\n\n- a\n- b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
		"# T\nSource: u\nKind: safety\n\n```\n# x\n", "# T\nSource: u\n\n~~~\n~~~\n\nS\n---\n",
		"---\ntitle: T\nsource: u\nkind: lore\nbeach: b\n---\n> q\n> r\n", "# T\nSource: u\n\n1. a\n   1. b\n\n<div>\nx\n</div>\n",
		"# T\nSource: u\n\n" + strings.Repeat(">", 200) + "\n",
		"# T\nSource: u\n\n" + strings.Repeat("[", 5000) + "\n",
		"# T\nSource: u\n\n" + deepList(40),
		"# T\nSource: u\n\n" + strings.Repeat("*a _b `c <d ", 300) + "\n",
		"---\ntitle: [unclosed\n---\ntext\n", "\xff\xfe#\x00 \x00T\x00", "# T\r\nSource: u\r\n\r\nWaves above 1.5 m (5 ft).\r\n",
		"# T\nSource: u\n\nRun:\n\n=== \"a\"\n\n    ```sh\n    x\n    ```\n\n=== \"b\"\n    y\n",
		"# T\nSource: u\n\nRun:\n{{< tabpane >}} {{% tab A %}}\n```\nx\n```\n{{% /tab %}} {{% tab \"B\" %}}\ny\n{{< /tabpane >}}\n",
		"# T\nSource: u\n\n<Tabs>\n  <TabItem label=\"a\">\n\n    ```\n    x\n    ```\n  </TabItem>\n</Tabs>\n<C a={() => 1 > 0} />{/* c */}\n",
	}
	for _, s := range seeds {
		f.Add(s, 40)
	}
	limits := corpus.Limits{MaxBytes: 64 << 10, MaxDepth: 16, MaxBlocks: 1000, MaxDelimiters: 2000}
	f.Fuzz(func(t *testing.T, src string, budget int) {
		if budget < 1 || budget > 2000 {
			budget = 40
		}
		for _, name := range []string{"f.md", "safety/f.md", "f.mdx"} {
			p := formats.All.Reader(".", corpus.Options{Limits: limits}).ParseBytes(name, []byte(src))
			if len(src) > limits.MaxBytes && !p.Rejected {
				t.Fatalf("a document of %d bytes was parsed, over the limit of %d", len(src), limits.MaxBytes)
			}
			ch, err := chunking.NewChunker(chunking.Config{Unit: "chars", Max: budget, Overlap: budget / 3, Min: budget / 4}, "")
			if err != nil {
				t.Fatal(err)
			}
			if p.Body != nil {
				if err := p.Body.Check(); err != nil {
					t.Fatalf("%s: the body breaks its contract: %v", name, err)
				}
			}
			chunks, diags := ch.Chunk(p.Body)
			lines := strings.Count(p.Doc.Text, "\n") + 1
			for _, c := range chunks {
				if c.ByteStart < 0 || c.ByteEnd > len(p.Doc.Text) || c.ByteStart >= c.ByteEnd {
					t.Fatalf("chunk %d: span %d-%d outside 0-%d", c.Order, c.ByteStart, c.ByteEnd, len(p.Doc.Text))
				}
				if c.LineStart < 1 || c.LineEnd < c.LineStart || c.LineEnd > lines {
					t.Fatalf("chunk %d: lines %d-%d outside 1-%d", c.Order, c.LineStart, c.LineEnd, lines)
				}
				if c.Element != schema.ElementTableRow && !wordsInOrder(c.Text, p.Doc.Text[c.ByteStart:c.ByteEnd]) {
					t.Fatalf("chunk %d: text %q is not the source's words in order", c.Order, c.Text)
				}
				if !c.Element.Valid() {
					t.Fatalf("chunk %d: element %q", c.Order, c.Element)
				}
				thresholds.Normaliser{}.Normalise(&c)
			}
			srcLines := strings.Count(src, "\n") + strings.Count(src, "\r") + 1 // a rejected document's positions are in its bytes
			for _, d := range append(p.Diags, diags...) {
				if d.Line < 0 || d.Line > max(lines, srcLines) {
					t.Fatalf("diagnostic line %d outside 1-%d: %s", d.Line, lines, d)
				}
			}
		}
	})
}

// deepList is a list n levels deep, one item a level.
func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}

// wordsInOrder reports whether text is src with some of it removed: its
// characters, spaces aside, occur in src in order. A chunk's text is its
// source span with markup removed, never rewritten.
func wordsInOrder(text, src string) bool {
	at := 0
	for _, r := range text {
		if r == ' ' || r == '\n' || r == '\t' {
			continue
		}
		i := strings.IndexRune(src[at:], r)
		if i < 0 {
			return false
		}
		at += i + utf8.RuneLen(r)
	}
	return true
}
