package chunking

import (
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestDebris: each figure counts the markup it names, and nothing a reader
// sees as code or as a template's own braces.
func TestDebris(t *testing.T) {
	para := func(text string) schema.Chunk {
		return schema.Chunk{DocTitle: "T", Element: schema.ElementParagraph, Text: text}
	}
	code := func(text string) schema.Chunk {
		return schema.Chunk{DocTitle: "T", Element: schema.ElementCodeBlock, Text: text}
	}
	inPath := func(title string, path ...string) schema.Chunk {
		return schema.Chunk{DocTitle: title, SectionPath: path, Element: schema.ElementParagraph, Text: "Words."}
	}
	tests := []struct {
		name   string
		chunk  schema.Chunk
		quoted string
		want   []string
	}{
		{"clean prose", para("Waves above one metre are dangerous."), "", nil},
		{"a PyMdown fence opens the text", para("/// tip\nUse uv."), "", []string{"starts with a block marker"}},
		{"a tab fence, deeper", para("//// tab | uv\nuv add x"), "", []string{"starts with a block marker"}},
		{"an admonition", para("!!! note\n    Words."), "", []string{"starts with a block marker"}},
		{"an admonition without its space", para("!!!note Words."), "", []string{"starts with a block marker"}},
		{"a collapsible one", para("???+ tip Words."), "", []string{"starts with a block marker"}},
		{"a Docusaurus admonition", para(":::note\nWords."), "", []string{"starts with a block marker"}},
		{"a Material tab", para(`=== "Python"` + "\n    Words."), "", []string{"starts with a block marker"}},
		{"a marker in the header only", para("Use uv."), "/// tip Use uv.", []string{"starts with a block marker"}},
		{"a marker inside the text is not a start", para("Write /// to close a block."), "", nil},
		{"a marker opening code is the code's", code("/// tip\nbody\n///"), "", nil},
		{"an anchor in a section", inPath("T", "Defaults { #defaults }"), "", []string{"attribute list in its path"}},
		{"an anchor in the title", inPath("Install {#install}"), "", []string{"attribute list in its path"}},
		{"attr_list's colon form", inPath("T", "Setup {: .wide }"), "", []string{"attribute list in its path"}},
		{"a template's field is not one", inPath("T", "Using {{ .Values.name }}"), "", nil},
		{"an anchor in backticks documents it", inPath("T", "The `{#id}` syntax"), "", nil},
		{"an anchor in text", para("Defaults {#defaults} apply."), "", []string{"attribute list in its text"}},
		{"in inline code", para("Write `{ #some-id }` after the heading."), "", nil},
		{"in a fence packed with prose", para("Fetch it:\n\n```sh\nkubectl get -o jsonpath='{.data.x}'\n```"), "", nil},
		{"a snippet marker", para(`--8<-- "docs/x.md"`), "", []string{"include marker in its text"}},
		{"include-markdown", para(`See {% include-markdown "x.md" %} here.`), "", []string{"include marker in its text"}},
		{"FastAPI's include", para("{* ../../docs_src/app.py hl[3] *}"), "", []string{"include marker in its text"}},
		{"Python-Markdown's include", para("{!../../docs_src/app.py!}"), "", []string{"include marker in its text"}},
		{"Hugo's include", para(`{{% include "x.md" %}}`), "", []string{"include marker in its text"}},
		{"Hugo's readfile", para(`{{< readfile file="x.go" >}}`), "", []string{"include marker in its text"}},
		{"MDX's raw-loader", para("import App from '!!raw-loader!./app.js';"), "", []string{"include marker in its text"}},
		{"a snippet marker in a fence is the code's", para("Like this:\n\n```\n--8<-- \"x.md\"\n```"), "", []string{"include marker in its code"}},
		{"a snippet block's marker", para("--8<--\ndocs/x.md\n--8<--"), "", []string{"include marker in its text"}},
		{"a cut mark in printed output is not one", code("```json\n{\n<------8<------>\n}\n```"), "", nil},
		{"a snippet marker in code", code("```\n--8<-- \"x.md\"\n```"), "", []string{"include marker in its code"}},
		{"mkdocstrings options as code", code("options:\n  members:\n    - get"), "", []string{"directive options as code"}},
		{"the old form", code("handler: python\nrendering:\n  show_source: false"), "", []string{"directive options as code"}},
		{"YAML in a fence is code", code("Set it:\n\n```yaml\ntls:\n  options:\n    x: 1\n```"), "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d Debris
			got := d.add(tt.chunk, tt.quoted)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if want := len(tt.want) - d.IncludeInCode; d.Total() != want {
				t.Errorf("got total %d, want %d", d.Total(), want)
			}
		})
	}
}

// TestDebrisUnknownBlocks: the documents' unknown block markers are summed
// from what their format counted.
func TestDebrisUnknownBlocks(t *testing.T) {
	ch, err := NewChunker(Config{Unit: "chars", Max: 100, Min: 20}, "")
	if err != nil {
		t.Fatal(err)
	}
	q := NewQuality(ch)
	for _, n := range []int{2, 0, 3} {
		q.Add(ch, &Body{Markup: map[string]int{MarkupUnknownBlock: n}}, nil)
	}
	if q.Debris.UnknownBlocks != 5 {
		t.Errorf("got %d unknown blocks, want 5", q.Debris.UnknownBlocks)
	}
	var b strings.Builder
	q.Write(&b, "x")
	if !strings.Contains(b.String(), "unknown block markers blanked            5") {
		t.Errorf("got\n%s\nwant the unknown blocks counted", b.String())
	}
}

// TestWithoutCode: fenced blocks and inline spans go, unmatched backticks
// stay.
func TestWithoutCode(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no code", "plain {#a}", "plain {#a}"},
		{"a span", "a `{#a}` b", "a  b"},
		{"a double span holding a backtick", "a ``x ` y`` b", "a  b"},
		{"an unmatched run", "a ` b", "a ` b"},
		{"runs of other lengths do not close", "a ``x` b", "a ``x` b"},
		{"a fence", "a\n```go\nx {#y}\n```\nb\n", "a\nb\n"},
		{"a longer fence holds a shorter one", "````\n```\n{#y}\n````\nc", "c"},
		{"a tilde fence", "~~~\n{#y}\n~~~\nd", "d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutCode(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
