package markdown

import (
	"strings"
	"testing"
)

// TestMarkdownComponents: in a Markdown page (mdx false: Docusaurus reads
// .md as MDX, OPA's docs write components there), a capitalised tag is a
// component when it is written as one (self-closing, with an attribute, or
// one of a pair) and its tags go; a type in prose ("List<String>") and a
// placeholder ("<OS>_<ARCH>") are words.
func TestMarkdownComponents(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"self-closing", "Run it:\n\n<RunSnippet command=\"data.example\"/>\n\nDone.", "Run it: Done."},
		{"with an attribute", "defined in terms of a <GlossaryTooltip term=\"scalar-values\">scalar value</GlossaryTooltip> here", "defined in terms of a scalar value here"},
		{"a pair", "<Card>\nWords in a card.\n</Card>", "Words in a card."},
		{"tabs, as before", "<Tabs>\n<TabItem value=\"a\" label=\"A\">\nIn A.\n</TabItem>\n</Tabs>", "In A."},
		{"a type in prose", "It returns a List<String> of names.", "It returns a List<String> of names."},
		{"placeholders", "Download opa_<OS>_<ARCH> for your system.", "Download opa_<OS>_<ARCH> for your system."},
		{"in code it is the code's", "Write `<RunSnippet command=\"x\"/>` there.", "Write `<RunSnippet command=\"x\"/>` there."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cleanAll(tt.body)
			if got := words(c); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// cleanAll is cleanMarkup over a whole body, nothing removed before.
func cleanAll(body string) cleaned {
	return cleanMarkup(body, []byte(body), make([]bool, len(body)), 0, false)
}

// words is what a cleaned body says, its spacing folded.
func words(c cleaned) string { return strings.Join(strings.Fields(string(c.b)), " ") }
