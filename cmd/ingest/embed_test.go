package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
	"github.com/ocean-safety/ingest/text/lexical"
)

// otherBuiltin is the built-in embedder under another name: a snapshot it
// made must not be queried with vectors of the real one.
type otherBuiltin struct{ *lexical.Builtin }

func (otherBuiltin) Name() string { return "builtin-hash-v9-test" }

var _ models.Embedder = otherBuiltin{}

func TestEmbedCommand(t *testing.T) {
	t.Parallel()
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	other := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{Embedder: otherBuiltin{lexical.NewBuiltin(1024)}})
	const query = "rip current near the shore"
	want, err := lexical.NewBuiltin(1024).Embed(context.Background(), []string{query})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStderr string
	}{
		{"the snapshot's embedder", []string{"embed", "--snapshot", snap, query}, exitOK, ""},
		{"named and the same", []string{"embed", "--snapshot", snap, "--embedder", "builtin", query}, exitOK, ""},
		{"no snapshot", []string{"embed", query}, exitOK, ""},
		{"another embedder's snapshot", []string{"embed", "--snapshot", other, "--embedder", "builtin", query}, exitUsage,
			"embedder differs from the snapshot's: --embedder builtin is builtin-hash-v1 (1024 dims), the snapshot was embedded with builtin-hash-v9-test (1024 dims)"},
		{"an embedder not to be had", []string{"embed", "--snapshot", other, query}, exitUsage, "builtin-hash-v9-test"},
		{"no text", []string{"embed", "--snapshot", snap}, exitUsage, `embed needs a "TEXT"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) {
				t.Fatalf("got exit %d, stderr %q; want exit %d, stderr with %q", code, stderr, tt.wantCode, tt.wantStderr)
			}
			if tt.wantCode != exitOK {
				return
			}
			var got []float32
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("stdout is not a JSON array of numbers: %v", err)
			}
			if !slices.Equal(got, want[0]) {
				t.Errorf("got a vector of %d floats that is not the built-in embedder's for %q, want the same %d floats", len(got), query, len(want[0]))
			}
		})
	}
}
