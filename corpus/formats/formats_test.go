package formats

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
)

// TestFormatsAgree: one page written in Markdown and in HTML gives the same
// chunks (elements, section paths, words, first lines), inline markup
// aside: a format maps its shapes to the same blocks, and the chunker does
// the rest. (At a budget as small as a few sentences the two can pack
// differently: the packer measures a span of the view, blanked markup
// included, and a page's tags are not a Markdown page's marks.)
func TestFormatsAgree(t *testing.T) {
	md := "# Rip currents\nSource: https://example.org/rip\n\n" +
		"A rip current is a narrow channel of water flowing away from the shore. It can carry a swimmer out in seconds.\n\n" +
		"## How to spot one\n\n" +
		"- A gap in the breaking waves.\n- Murky water moving *seaward*.\n\n" +
		"## Escape\n\n" +
		"1. Stay calm.\n2. Swim parallel to the shore:\n\n   ```\n   swim --parallel\n   ```\n\n" +
		"| Flag | Meaning |\n|---|---|\n| Red | No swimming |\n| Yellow | Caution |\n"
	html := "<h1>Rip currents</h1>\n<link rel=canonical href=\"https://example.org/rip\">\n\n" +
		"<p>A rip current is a narrow channel of water flowing away from the shore. It can carry a swimmer out in seconds.</p>\n\n" +
		"<h2>How to spot one</h2>\n\n" +
		"<ul><li>A gap in the breaking waves.</li>\n<li>Murky water moving <em>seaward</em>.</li></ul>\n\n" +
		"<h2>Escape</h2>\n\n" +
		"<ol><li>Stay calm.</li>\n<li>Swim parallel to the shore:\n\n   <pre>\n   swim --parallel\n   </pre></li></ol>\n\n" +
		"<table><tr><th>Flag</th><th>Meaning</th></tr>\n\n<tr><td>Red</td><td>No swimming</td></tr>\n<tr><td>Yellow</td><td>Caution</td></tr></table>\n"
	r := All.Reader(".", corpus.Options{})
	for _, max := range []int{120, 1200} {
		t.Run(fmt.Sprintf("max %d", max), func(t *testing.T) {
			ch, err := chunking.NewChunker(chunking.Config{Unit: "chars", Max: max}, "")
			if err != nil {
				t.Fatal(err)
			}
			got, want := chunks(t, r, ch, "rip.html", html), chunks(t, r, ch, "rip.md", md)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got HTML chunks:\n%s\nwant the Markdown page's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// chunks is the page's chunks, each as its element, section path, first
// line and words (the Markdown's emphasis and fence marks aside).
func chunks(t *testing.T, r *corpus.Reader, ch *chunking.Chunker, name, src string) []string {
	t.Helper()
	p := r.ParseBytes(name, []byte(src))
	if p.Rejected {
		t.Fatalf("%s rejected: %v", name, p.Diags)
	}
	cs, _ := ch.Chunk(p.Body)
	var out []string
	for _, c := range cs {
		words := strings.Fields(strings.NewReplacer("*", "", "```", "").Replace(c.Text))
		out = append(out, fmt.Sprintf("%s %v %d %s", c.Element, c.SectionPath, c.LineStart, strings.Join(words, " ")))
	}
	return out
}
