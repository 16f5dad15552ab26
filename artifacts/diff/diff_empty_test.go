package diff

import (
	"fmt"
	"testing"
)

// TestWithEmptyDocuments: the documents without chunks the manifests list
// are added, removed or changed as any document is.
func TestWithEmptyDocuments(t *testing.T) {
	tests := []struct {
		name               string
		rows               []DocDiff // what the rows' merge found
		oldEmpty, newEmpty []string
		want               string // path:status, in path order
	}{
		{"one went", nil, []string{"e.md"}, nil, "[e.md:removed]"},
		{"one came", nil, nil, []string{"e.md"}, "[e.md:added]"},
		{"still there", nil, []string{"e.md"}, []string{"e.md"}, "[]"},
		{"from none to some chunks", []DocDiff{{Path: "e.md", Status: DocAdded}}, []string{"e.md"}, nil, "[e.md:changed]"},
		{"from some chunks to none", []DocDiff{{Path: "e.md", Status: DocRemoved}}, nil, []string{"e.md"}, "[e.md:changed]"},
		{"in path order with the rows'", []DocDiff{{Path: "a.md", Status: DocRemoved}, {Path: "z.md", Status: DocAdded}}, []string{"m.md"}, nil,
			"[a.md:removed m.md:removed z.md:added]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range withEmptyDocuments(tt.rows, tt.oldEmpty, tt.newEmpty) {
				got = append(got, d.Path+":"+string(d.Status))
			}
			if s := fmt.Sprint(got); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}
