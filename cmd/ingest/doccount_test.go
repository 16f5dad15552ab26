package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diff"
)

// TestOneDocumentCount: a document that yields no chunk (a title and
// nothing else) is a document wherever one is counted: the manifest (and
// its list of them), ingest list, the run's summary and ingest diff's
// table and tally, over a publish, an edit that removes it and another
// document, and a second publish.
func TestOneDocumentCount(t *testing.T) {
	t.Parallel()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	empty := "---\ntitle: Only a title\nsource: https://example.org/empty\n---\n# Only a title\n"
	if err := os.WriteFile(filepath.Join(c, "empty.md"), []byte(empty), 0o644); err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(t.TempDir(), "pub")
	publish := func() artifacts.Manifest {
		t.Helper()
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--publish", pub, "--allow-shrink")
		if code != exitOK {
			t.Fatalf("index: exit %d: %s", code, stderr)
		}
		m, err := artifacts.ReadManifest(filepath.Join(pub, "latest"))
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Snapshots []struct {
				Documents int  `json:"documents"`
				Latest    bool `json:"latest"`
			} `json:"snapshots"`
		}
		code, stdout, stderr := runCLI(context.Background(), "", "list", pub, "--json")
		if code != exitOK || json.Unmarshal([]byte(stdout), &list) != nil {
			t.Fatalf("list: exit %d: %s%s", code, stdout, stderr)
		}
		for _, s := range list.Snapshots {
			if s.Latest && s.Documents != m.Counts.Documents {
				t.Errorf("list says %d documents, the manifest %d", s.Documents, m.Counts.Documents)
			}
		}
		return m
	}
	before := publish()
	if want := []string{"empty.md"}; len(before.EmptyDocuments) != 1 || before.EmptyDocuments[0] != want[0] {
		t.Errorf("got documents without chunks %v, want %v", before.EmptyDocuments, want)
	}
	oldDir, err := filepath.EvalSymlinks(filepath.Join(pub, "latest"))
	if err != nil {
		t.Fatal(err)
	}
	var gone string
	entries, _ := os.ReadDir(c)
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".md" && e.Name() != "empty.md" {
			gone = e.Name()
			break
		}
	}
	os.Remove(filepath.Join(c, "empty.md"))
	os.Remove(filepath.Join(c, gone))
	after := publish()
	if after.Counts.Documents != before.Counts.Documents-2 || len(after.EmptyDocuments) != 0 {
		t.Errorf("got %d documents (%v without chunks) after removing 2 of %d, want %d and none", after.Counts.Documents, after.EmptyDocuments, before.Counts.Documents, before.Counts.Documents-2)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "diff", oldDir, filepath.Join(pub, "latest"), "--format", "json")
	if code != exitOK {
		t.Fatalf("diff: exit %d: %s", code, stderr)
	}
	var rep diff.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	rows := map[string][2]int{}
	for _, r := range rep.Counts {
		rows[r.Name] = [2]int{r.Before, r.After}
	}
	if got, want := rows["documents"], [2]int{before.Counts.Documents, after.Counts.Documents}; got != want {
		t.Errorf("diff's documents row: got %v, want the manifests' %v", got, want)
	}
	if got := rows["documents without chunks"]; got != [2]int{1, 0} {
		t.Errorf("diff's documents without chunks: got %v, want [1 0]", got)
	}
	if rep.Summary.DocumentsRemoved != 2 {
		t.Errorf("diff: got %d documents removed, want 2 (%s and empty.md)", rep.Summary.DocumentsRemoved, gone)
	}
}
