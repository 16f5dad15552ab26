package searchtext

import (
	"strings"
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
		{"a link's text over two lines", "See the [libraries and\ntools](https://npmjs.com/x) here.\n\nNext.", "See the libraries and\ntools here.\n\nNext."},
		{"an image's alt over two lines", "![Chart: how complex was it\nto start?](image2.png)", "Chart: how complex was it\nto start?"},
		{"a code span in a link over two lines", "Run [the `otelcol`\nbinary](/x).", "Run the `otelcol`\nbinary."},
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

// TestOf: the context, a blank line, the cleaned text.
func TestOf(t *testing.T) {
	c := schema.Chunk{SectionPath: []string{"Install", "Linux"}, ContextHeader: "Docs › Install: how.", Text: "### Linux\nSee [the page](/x)."}
	if got, want := Of(c), "Install › Linux › Docs › Install: how.\n\nLinux\nSee the page."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestFields: the two parts of what a chunk's search_text holds, read from
// it when the snapshot has one.
func TestFields(t *testing.T) {
	base := schema.Chunk{SectionPath: []string{"A"}, ContextHeader: "H", Text: "See [x](y)."}
	tests := []struct {
		name, stored, context, text string
	}{
		{"before schema 5: cleaned now", "", "A › H", "See x."},
		{"stored: read as stored", "A › H\n\nSee x, as stored.", "A › H", "See x, as stored."},
		{"stored with another context: split where joined", "B › H\n\nSee x.", "B › H", "See x."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.SearchText = tt.stored
			if context, text := Fields(c); context != tt.context || text != tt.text {
				t.Errorf("got %q and %q, want %q and %q", context, text, tt.context, tt.text)
			}
		})
	}
}

// FuzzClean: Clean never panics, keeps no mask of its own, and leaves a
// text without markup as it is.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"See [a](b).", "## H {#h}\n/// note | T\n`[x](y)` [`z`](w)", "```console\n<font color=red>x</font>\n```", "![a\nb](c) --8<-- \"f\" {* g *}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := Clean(text)
		if strings.ContainsRune(got, spanMark) && !strings.ContainsRune(text, spanMark) {
			t.Errorf("Clean(%q) = %q: a mask left in", text, got)
		}
		if !strings.ContainsAny(text, "[#{/!?:=-<`~") && got != text {
			t.Errorf("Clean(%q) = %q, want it as it is", text, got)
		}
	})
}
