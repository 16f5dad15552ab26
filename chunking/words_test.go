package chunking

import (
	"strings"
	"testing"
)

// TestWords: a line that lost markup between its words has its spaces
// collapsed; one that lost blanks or markup only at its end (the gap a line
// moved left leaves: code in a MkDocs admonition or tab) keeps its spacing,
// its indentation and its alignment, only its end trimmed.
func TestWords(t *testing.T) {
	tests := []struct {
		name string
		body string // the view, "~" a blanked (removed) byte
		want string
	}{
		{"untouched", "a  b\n   c", "a  b\n   c"},
		{"markup between words collapses", "a~~~~b  c", "a b c"},
		{"a moved code line keeps its spacing", "servers:~~~~\n  -   url: y~~~~\n          - url: x~~~~", "servers:\n  -   url: y\n          - url: x"},
		{"code keeps a space before a dot", "trivy image --cache-dir .~~~~", "trivy image --cache-dir ."},
		{"a line of markup only goes", "Text.\n~~~~~~~~\nMore.", "Text.\nMore."},
		{"a bare list marker left goes", "3. ~~~~~~~~~\n4. Stop.", "4. Stop."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Body{View: strings.ReplaceAll(tt.body, "~", " "), Removed: make([]bool, len(tt.body))}
			for i := range tt.body {
				b.Removed[i] = tt.body[i] == '~'
			}
			if got := b.Words(0, len(tt.body)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
