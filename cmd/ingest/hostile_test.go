package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pathological writes documents built to make a Markdown parser slow or
// hungry (each was minutes or gigabytes before the limits), next to the
// fixture corpus's good documents.
func pathological(t *testing.T, dir string) map[string]string {
	t.Helper()
	head := "# Hostile\nSource: https://example.org/x\n\n"
	var list strings.Builder
	for i := range 2000 {
		list.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	files := map[string]string{
		"quotes.md":      head + strings.Repeat(">", 100_000) + "\n",
		"deep-list.md":   head + list.String(),
		"brackets.md":    head + strings.Repeat("[", 2_000_000) + "\n",
		"huge.md":        head + strings.Repeat("Waves above 1.5 m are dangerous for beginners. ", 200_000) + "\n",
		"many-blocks.md": head + strings.Repeat("a\n\n", 60_000),
	}
	writeFiles(t, dir, files)
	return map[string]string{"quotes.md": "too-deep", "deep-list.md": "too-deep", "brackets.md": "too-many-delimiters", "huge.md": "too-large", "many-blocks.md": "too-many-blocks"}
}

// TestPathologicalCorpus: pathological files mixed into a corpus are each
// rejected with a positioned diagnostic naming the limit; the rest is
// published (exit 3).
func TestPathologicalCorpus(t *testing.T) {
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	want := pathological(t, c)
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", filepath.Join(root, "snap"))
	if code != exitPartial || !strings.Contains(stderr, ": 4 documents (5 rejected") || strings.Contains(stderr, "oversize") {
		t.Fatalf("got exit %d, %q; want 4 documents published and 5 rejected", code, stderr)
	}
	for file, code := range want {
		if !strings.Contains(stderr, file+":") || !strings.Contains(stderr, "["+code+"]") {
			t.Errorf("got no %s diagnostic for %s in:\n%s", code, file, stderr)
		}
	}
}

// TestInterrupt: SIGINT stops a run that is reading a large corpus: exit
// 130, nothing published, the previous snapshot as it was.
func TestInterrupt(t *testing.T) {
	root := t.TempDir()
	c := filepath.Join(root, "corpus")
	for i := range 40 {
		copyTree(t, "../../corpus/ocean", filepath.Join(c, strings.Repeat("x", i%3+1)+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	pathological(t, c)
	out := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	before := tree(t, out)
	cmd := exec.Command(os.Args[0], "index", "--corpus", c, "--out", out, "--allow-shrink", "--workers", "2")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	t.Logf("stopped %v after SIGINT", time.Since(sent).Round(time.Millisecond))
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("got %v, stderr %q; want exit 130 saying interrupted", err, errb.String())
	}
	if after := tree(t, out); !equalTrees(before, after) {
		t.Errorf("got the previous snapshot changed by an interrupted run")
	}
}
