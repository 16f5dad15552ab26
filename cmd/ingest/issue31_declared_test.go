package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestLyingManifest (issue 31, item 9): a manifest whose counts or
// embedder are not what its rows and its run recorded is refused by every
// command that reads the snapshot, naming what it says. Before, verify
// passed counts.documents: 999 and another embedder name, diff against it
// said "No changes", and embed --snapshot took the embedder it named.
func TestLyingManifest(t *testing.T) {
	root := t.TempDir()
	honest := filepath.Join(root, "honest")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", honest, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	lies := []struct {
		name string
		edit func(*artifacts.Manifest)
		text string
	}{
		{"documents", func(m *artifacts.Manifest) { m.Counts.Documents = 999 }, "counts.documents 999, its run recorded 4"},
		{"embedder", func(m *artifacts.Manifest) { m.Embedder.Name = "ollama:nomic-embed-text" },
			`embedder ollama:nomic-embed-text (1024 dims), its vectors' reuse key says "builtin-hash-v1|dims=1024"`},
	}
	for _, lie := range lies {
		snap := filepath.Join(root, lie.name)
		stagestest.CopyTo(t, honest, snap)
		stagestest.EditManifest(t, snap, lie.edit)
		for _, args := range [][]string{
			{"verify", snap},
			{"diff", honest, snap},
			{"inspect", snap},
			{"embed", "--snapshot", snap, "rip current"},
		} {
			t.Run(lie.name+"/"+args[0], func(t *testing.T) {
				code, stdout, stderr := runCLI(context.Background(), "", args...)
				if code != exitFailed || !strings.Contains(stdout+stderr, lie.text) || strings.Contains(stdout, "No changes") {
					t.Errorf("got exit %d, %s%s; want exit %d naming %q", code, stdout, stderr, exitFailed, lie.text)
				}
			})
		}
	}
}
