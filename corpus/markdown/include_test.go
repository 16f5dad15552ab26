package markdown

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/include"
)

// TestIncludeDiagnosticLines: an include that cannot be read is named at
// its line of the file, past a front matter and a title, not at its line
// of the content after them.
func TestIncludeDiagnosticLines(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "there.md"), []byte("Included text.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		raw  string
		want []int // the lines of the include-unresolved diagnostics
	}{
		{"no front matter", "Some text here.\n\n--8<-- \"nothere.md\"\n", []int{3}},
		{"a title and a source line", "# Title\nSource: https://example.org/t\n\nSome text.\n\n--8<-- \"nothere.md\"\n", []int{6}},
		{"front matter and a title", "---\ntitle: T\nsource: https://example.org/t\n---\n# T\n\nSome text.\n\n--8<-- \"there.md\"\n\n--8<-- \"nothere.md\"\n\n--8<-- \"gone.md\"\n", []int{11, 13}},
		{"front matter, CRLF", "---\r\ntitle: T\r\nsource: https://example.org/t\r\n---\r\n\r\nSome text.\r\n\r\n--8<-- \"nothere.md\"\r\n", []int{8}},
	}
	f := New(corpus.Options{Root: root, SourceOptional: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := f.Parse("doc.md", []byte(tt.raw))
			var got []int
			for _, d := range p.Diags {
				if d.Code == include.Unresolved {
					got = append(got, d.Line)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got lines %v, want %v (diagnostics %+v)", got, tt.want, p.Diags)
			}
		})
	}
}
