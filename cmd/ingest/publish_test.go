package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// TestIndexPublish: --publish writes DIR/<name>/ and moves latest only when
// complete; the second night reuses the first and links to it; --keep
// prunes; diff --exit-code says what changed with its exit code alone.
func TestIndexPublish(t *testing.T) {
	t.Parallel()
	corpusDir := badCorpus(t) // the fixture corpus plus one rejected document
	os.Remove(filepath.Join(corpusDir, "bad.md"))
	pub := filepath.Join(t.TempDir(), "pub")
	index := func() {
		t.Helper()
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--publish", pub, "--keep", "1", "--quiet"); code != exitOK {
			t.Fatalf("index --publish: exit %d: %s", code, stderr)
		}
	}
	index()
	first, err := publish.Latest(pub)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(corpusDir, "new.md"), []byte("# New\nSource: https://example.org\n\nA new document tonight.\n"), 0o644)
	index()
	second, err := publish.Latest(pub)
	if err != nil || second == first {
		t.Fatalf("got latest %s (was %s), %v; want it moved", second, first, err)
	}
	m, err := artifacts.ReadManifest(second)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Files[artifacts.DiagnosticsFile]; !ok {
		t.Errorf("got files %v, want %s published with the others", m.Files, artifacts.DiagnosticsFile)
	}
	if code, stdout, _ := runCLI(context.Background(), "", "verify", second); code != exitOK {
		t.Errorf("verify %s: exit %d: %s", second, code, stdout)
	}
	if m.Previous == nil || m.Previous.Name != filepath.Base(first) || m.Calls.HeadersReused == 0 {
		t.Errorf("got previous %+v, calls %+v; want a link to %s and reuse", m.Previous, m.Calls, filepath.Base(first))
	}
	if _, err := os.Stat(first); !os.IsNotExist(err) {
		t.Errorf("--keep 1: got %s kept (%v)", first, err)
	}
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--publish", pub, "--out", pub); code != exitUsage || !strings.Contains(stderr, "exclusive") {
		t.Errorf("--publish with --out: got exit %d, %q", code, stderr)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "diff", "--exit-code", second, second)
	if code != exitOK || stderr != "" || !strings.Contains(stdout, "No changes") {
		t.Errorf("diff of a snapshot with itself: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	other := filepath.Join(t.TempDir(), "old")
	runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", other, "--quiet")
	code, stdout, stderr = runCLI(context.Background(), "", "diff", "--exit-code", other, second)
	if code != exitFailed || stderr != "" || !strings.Contains(stdout, "new.md") {
		t.Errorf("diff --exit-code of changed snapshots: exit %d, stderr %q, stdout without new.md:\n%s", code, stderr, stdout)
	}
}

// TestPublishDiffReport: --diff writes <name>.diff.md and .diff.json beside
// the new snapshot, against the previous latest, and nothing on a first
// publish or an unchanged one.
func TestPublishDiffReport(t *testing.T) {
	t.Parallel()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	pub := filepath.Join(t.TempDir(), "pub")
	run := func() string {
		t.Helper()
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--publish", pub, "--diff", "--quiet")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return stderr
	}
	reports := func() []string {
		m, _ := filepath.Glob(filepath.Join(pub, "*.diff.*"))
		return m
	}
	if run(); len(reports()) != 0 {
		t.Errorf("first publish: got reports %v, want none", reports())
	}
	if run(); len(reports()) != 0 {
		t.Errorf("unchanged publish: got reports %v, want none", reports())
	}
	doc := filepath.Join(c, "waves.md")
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, append(b, "\nSwim parallel to the shore until the pull stops.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := run()
	latest, err := publish.Latest(pub)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(latest + ".diff.md")
	if err != nil || !strings.Contains(string(md), "waves.md") || !strings.Contains(stderr, "diff: "+latest+".diff.md") {
		t.Fatalf("after an edit: report %q (%v), stderr %s", md, err, stderr)
	}
	if _, err := os.Stat(latest + ".diff.json"); err != nil {
		t.Error(err)
	}
}
