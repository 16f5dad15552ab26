package markdown

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
)

// pymdownShapes are PyMdown Blocks as sites write them, and the shapes that
// break a naive reader: unclosed, over-closed, crossed, nested by count.
var pymdownShapes = []string{
	"/// tip\nWords.\n///\n",
	"/// note | A title\n    open: true\n    type: info\n\nWords.\n///\n",
	"//// tab | uv\n/// tip\nIn a tab.\n///\n```sh\nuv add x\n```\n////\n//// tab | pip\npip\n////\n",
	"/// details | Technical Details\n    type: info\nhidden\n///\n",
	"/// html | div[style='x']\nkept\n///\n", "/// mine | custom\nbody\n///\n",
	"///\nnothing opened\n", "/// tip\nnever closed", "//// tab | a\n/// tip\ncrossed\n////\n///\n",
	"/////\n////\n///\n", "/// | only a title\n///\n", "   /// tip |   \n   ///   \n",
	"```\n/// tip\nin code\n///\n```\n", "!!! note\n    /// tip\n    nested\n    ///\n",
	"/// tip\n    \n    options?\n\n///", "/// tab | \"quoted\" | bars\n///\n", "///tip\n///",
	"??? example\n    !!! note\n        === \"A\"\n            deep\n    back\nout\n", "!!! tip\n    ```\n    !!! note\n    ```\n        \n",
	"<RunSnippet command=\"x\"/>\n<Card>\nin a card\n</Card> List<String> ::: tip\n",
}

// FuzzPyMdownBlocks reads any body as PyMdown Blocks and as a whole
// Markdown document: it must never panic; the fences' reader blanks every
// line it takes for a fence and nothing but fence and option lines (never a
// word of a block's body); its regions lie inside the body, each ending
// where it starts or after; and the document's body keeps the chunker's
// contract (chunking.Body.Check).
func FuzzPyMdownBlocks(f *testing.F) {
	for _, s := range pymdownShapes {
		f.Add(s)
	}
	f.Fuzz(checkPyMdownBlocks)
}

// TestPyMdownBlocks holds the fuzzer's invariants on its seeds.
func TestPyMdownBlocks(t *testing.T) {
	for _, s := range pymdownShapes {
		t.Run(strings.SplitN(s, "\n", 2)[0], func(t *testing.T) { checkPyMdownBlocks(t, s) })
	}
}

func checkPyMdownBlocks(t *testing.T, body string) {
	c := cleaned{b: []byte(body), removed: make([]bool, len(body)), counts: map[string]int{}}
	var p pymdownBlocks
	var took []bool // per line: read as a fence or an option line
	off := 0
	for l := range strings.Lines(body) {
		start, line := off, strings.TrimSuffix(l, "\n")
		off += len(l)
		took = append(took, p.line(&c, start, off, line))
		if blockFenceRe.MatchString(line) && !took[len(took)-1] {
			t.Fatalf("%.200q: fence line %q not read", body, line)
		}
	}
	k, start := 0, 0
	for i := 0; i <= len(body); i++ {
		if i < len(body) && body[i] != '\n' {
			if c.removed[i] && !took[k] {
				t.Fatalf("%.200q: byte %d of line %d blanked, not a fence or option line", body, i, k+1)
			}
			continue
		}
		if k < len(took) && took[k] && strings.TrimSpace(string(c.b[start:i])) != "" {
			t.Fatalf("%.200q: line %d read as markup, left %q", body, k+1, c.b[start:i])
		}
		k, start = k+1, i+1
	}
	for _, r := range append(c.admonitions, c.tabs...) {
		if r.start < 0 || r.start > r.end || r.end > len(body) {
			t.Fatalf("%.200q: region %+v outside the body's %d bytes", body, r, len(body))
		}
	}
	parsed := New(corpus.Options{SourceOptional: true}).Parse("a.md", []byte("# T\n\n"+body))
	if parsed.Body == nil {
		return
	}
	if err := parsed.Body.Check(); err != nil {
		t.Fatalf("%.200q: the body breaks its contract: %v", body, err)
	}
	ch, _ := chunking.NewChunker(chunking.DefaultConfig(), "")
	chunks, _ := ch.Chunk(parsed.Body)
	for _, c := range chunks {
		if c.ByteStart < 0 || c.ByteStart > c.ByteEnd || c.ByteEnd > len(parsed.Doc.Text) {
			t.Fatalf("%.200q: chunk %d spans %d-%d outside %d bytes", body, c.Order, c.ByteStart, c.ByteEnd, len(parsed.Doc.Text))
		}
	}
}
