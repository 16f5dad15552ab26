package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestUnchangedFromAnotherFolder (issue 31, item 11): the unchanged
// shortcut republishes the previous snapshot only when everything that
// goes into it is unchanged, what the corpus folder decides included: the
// source label it defaults to, the language its name stands for. The same
// corpus indexed from another folder with --prev writes what it writes
// without. Before, it republished the old parquet as it was, keeping the
// old source_label (otel-en) where a run without --prev wrote content.
func TestUnchangedFromAnotherFolder(t *testing.T) {
	tests := []struct {
		name       string
		prev, next string // the corpus folders, under the test's root
		config     string // a config file's text, "" for none
	}{
		{"another folder, the label it defaults to", "otel/en", "content", ""},
		{"the same label, a language folder", "site/docs", "site/pt", "source_label: site\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			index := func(corpus, out string, more ...string) artifacts.Manifest {
				t.Helper()
				args := []string{"index", "--corpus", filepath.Join(root, corpus), "--out", filepath.Join(root, out), "--quiet"}
				if tt.config != "" {
					args = append(args, "--config", filepath.Join(root, "c.yaml"))
				}
				if code, _, stderr := runCLI(context.Background(), "", append(args, more...)...); code != exitOK {
					t.Fatalf("%v: exit %d: %s", args, code, stderr)
				}
				m, err := artifacts.ReadManifest(filepath.Join(root, out))
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(root, "c.yaml"), []byte(tt.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			copyTree(t, fixtureCorpus, filepath.Join(root, tt.prev))
			copyTree(t, fixtureCorpus, filepath.Join(root, tt.next))
			prev := index(tt.prev, "prev")
			with := index(tt.next, "with", "--prev", filepath.Join(root, "prev"))
			without := index(tt.next, "without")
			got, want := with.Files[artifacts.ChunksFile].SHA256, without.Files[artifacts.ChunksFile].SHA256
			if got != want {
				t.Errorf("with --prev: got chunks.parquet %.12s, want %.12s as without (the previous one: %.12s)",
					got, want, prev.Files[artifacts.ChunksFile].SHA256)
			}
			if with.ConfigHash != without.ConfigHash || with.ConfigHash == prev.ConfigHash {
				t.Errorf("config hash: got %.12s with --prev, %.12s without, %.12s before; want the two runs' the same, the previous one's another",
					with.ConfigHash, without.ConfigHash, prev.ConfigHash)
			}
			if with.Calls.HeaderCalls != 0 || with.Calls.VectorsReused != with.Counts.Chunks {
				t.Errorf("with --prev: got %+v, want every vector reused and no header call", with.Calls)
			}
		})
	}
}
