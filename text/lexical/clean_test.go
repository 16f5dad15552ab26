package lexical

import (
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestClean(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"prose as written", "Swim parallel to the shore.\n\nThen swim back.", "Swim parallel to the shore.\n\nThen swim back."},
		{"a link's target", "See the [registry](/ecosystem/registry/?s=collector) first.", "See the registry first."},
		{"a link with a title and parentheses", `Read [the spec](https://example.org/a_(b) "Spec") now.`, "Read the spec now."},
		{"an image's source", "![Current architecture](current-demo-architecture.png)", "Current architecture"},
		{"a badge in a link", "[![Build](https://ci/badge.svg)](https://ci/job)", "Build"},
		{"a reference link", "Use [the collector][otelcol] and [it][].", "Use the collector and it."},
		{"a code span in a link's text", "Run [`otelcol --help`](/docs/collector/) once.", "Run `otelcol --help` once."},
		{"a bracket that is no link", "Tick [x] and call f(a) [1].", "Tick [x] and call f(a) [1]."},
		{"a code span holding link syntax", "Write `[text](url)` for a link.", "Write `[text](url)` for a link."},
		{"heading hashes", "intro\n\n### BYOB (Bring Your Own Backend)\n\nJaeger is great.", "intro\n\nBYOB (Bring Your Own Backend)\n\nJaeger is great."},
		{"a closed heading with an anchor", "## Defaults ## {#defaults}", "Defaults"},
		{"attribute lists", "Install it { #install .big } here{: .note }.", "Install it here."},
		{"a template's braces kept", "Set {{ .Values.port }} in values.", "Set {{ .Values.port }} in values."},
		{"PyMdown Blocks markers", "/// tip | Use uv\nIt is fast.\n///", "Use uv\nIt is fast."},
		{"a PyMdown block without a title shows its type", "/// note\nText.\n///", "note\nText."},
		{"an admonition marker", "!!! warning \"Cold water\"\n    Wear a suit.", "Cold water\n    Wear a suit."},
		{"a content tab marker", "=== \"Linux\"\n\nRun it.", "Linux\n\nRun it."},
		{"a Docusaurus admonition", ":::tip Good to know\nIt works.\n:::", "Good to know\nIt works."},
		{"a mkdocstrings directive keeps its module", "::: package.module", "package.module"},
		{"include markers", "Before.\n--8<-- \"docs/snippet.md:2:5\"\n{* ../../docs_src/app.py hl[3] *}\n{!docs/x.md!}\n{% include \"a.md\" %}\n{{< readfile file=\"x.go\" >}}\nAfter.", "Before.\nAfter."},
		{"an MDX raw import", "import Code from '!!raw-loader!./app.js';\nSee the code.", "See the code."},
		{"code kept as written", "Run this:\n\n```yaml\n# a comment, not a heading\nurl: [a](b)\n```", "Run this:\n\n```yaml\n# a comment, not a heading\nurl: [a](b)\n```"},
		{"styling tags out of a console fence", "```console\n$ <font color=\"#4E9A06\">fastapi</font> dev <span style=\"color: red\">main.py</span>\n<b>INFO</b> ready\n```", "```console\n$ fastapi dev main.py\nINFO ready\n```"},
		{"styling tags kept in an HTML fence", "```html\n<span class=\"x\">hi</span>\n```", "```html\n<span class=\"x\">hi</span>\n```"},
		{"a tilde fence", "~~~\n<font color=red>up</font>\n~~~\n## After", "~~~\nup\n~~~\nAfter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Clean(tt.text); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEmbeddedInput: a row of this schema is keyed by the search text it
// stored, one written before it by the text it then embedded, verbatim; a
// new chunk's EmbedInput meets the old key only where Clean changes nothing.
func TestEmbeddedInput(t *testing.T) {
	q := []schema.Quantity{{Surface: "5 ft", Unit: "ft", SIValue: 1.524, SIUnit: "m"}}
	tests := []struct {
		name      string
		row       schema.Chunk
		want      string
		sameAsNew bool // EmbedInput of the same chunk, cleaned now, is the key
	}{
		{"schema 5: its search_text", schema.Chunk{SectionPath: []string{"A"}, ContextHeader: "H", Text: "see [x](y)", SearchText: "A › H\n\nsee x"},
			"A › H\n\nsee x", true},
		{"schema 5 with quantities", schema.Chunk{ContextHeader: "H", Text: "waves of 5 ft", SearchText: "H\n\nwaves of 5 ft", Quantities: q},
			"H\n\nwaves of 5 ft\n\n5 ft [1.52 m]", true},
		{"schema 4, clean text: the same key", schema.Chunk{SectionPath: []string{"A"}, ContextHeader: "H", Text: "plain words"},
			"A › H\n\nplain words", true},
		{"schema 4, a link: the verbatim key", schema.Chunk{ContextHeader: "H", Text: "see [x](y)"},
			"H\n\nsee [x](y)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EmbeddedInput(tt.row)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if same := got == EmbedInput(tt.row); same != tt.sameAsNew {
				t.Errorf("got EmbedInput %q (same as the row's key: %v), want same %v", EmbedInput(tt.row), same, tt.sameAsNew)
			}
		})
	}
}

// TestSearchText: the context, a blank line, the cleaned text; EmbedInput
// adds the quantities after it.
func TestSearchText(t *testing.T) {
	c := schema.Chunk{SectionPath: []string{"Install", "Linux"}, ContextHeader: "Docs › Install: how.", Text: "### Linux\nSee [the page](/x)."}
	if got, want := SearchText(c), "Install › Linux › Docs › Install: how.\n\nLinux\nSee the page."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := EmbedInput(c), SearchText(c); got != want {
		t.Errorf("got EmbedInput %q, want the search text %q without quantities", got, want)
	}
}
