package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// indexInto indexes a corpus into a new snapshot folder and returns it.
func indexInto(t *testing.T, corpusDir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--out", out, "--quiet"); code != exitOK && code != exitPartial {
		t.Fatalf("index %s: exit %d: %s", corpusDir, code, stderr)
	}
	return out
}

func TestDiffCommand(t *testing.T) {
	t.Parallel()
	old := indexInto(t, fixtureCorpus)
	same := indexInto(t, fixtureCorpus)
	edited := copyFixture(t)
	if err := os.WriteFile(filepath.Join(edited, "tides.md"), []byte("# Tides\nSource: https://tides.example\n\nTwo high tides a day.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	added := indexInto(t, edited)
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStdout string
		wantStderr string
	}{
		{"identical", []string{"diff", old, same}, exitOK, "No changes", ""},
		{"identical, exit code", []string{"diff", "--exit-code", old, same}, exitOK, "No changes", ""},
		{"changed", []string{"diff", old, added}, exitOK, "**added** `tides.md`", ""},
		{"changed, exit code", []string{"diff", "--exit-code", old, added}, exitFailed, "**added** `tides.md`", ""},
		{"json", []string{"diff", "--format", "json", old, added}, exitOK, `"changed": true`, ""},
		{"missing snapshot", []string{"diff", old, missing}, exitFailed, "", missing + ": no such snapshot folder"},
		{"one folder", []string{"diff", old}, exitUsage, "", "two snapshot folders"},
		{"bad format", []string{"diff", "--format", "html", old, added}, exitUsage, "", "want md or json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectCLI(t, tt.args, tt.want, tt.wantStdout, tt.wantStderr) })
	}
	_, stdout, _ := runCLI(context.Background(), "", "diff", "--format", "json", old, added)
	var rep struct {
		Changed bool `json:"changed"`
		Summary struct {
			DocumentsAdded int `json:"documents_added"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || !rep.Changed || rep.Summary.DocumentsAdded != 1 {
		t.Errorf("got JSON %+v (%v), want changed with 1 document added", rep, err)
	}
}

// copyFixture copies the fixture corpus into a temporary folder of the same name.
func copyFixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), filepath.Base(fixtureCorpus))
	err := filepath.WalkDir(fixtureCorpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fixtureCorpus, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestVerifyCommand(t *testing.T) {
	t.Parallel()
	good := indexInto(t, fixtureCorpus)
	bad := indexInto(t, fixtureCorpus)
	if err := os.WriteFile(filepath.Join(bad, "report.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStdout string
		wantStderr string
	}{
		{"good", []string{"verify", good}, exitOK, "all 12 checks passed", ""},
		{"modified report", []string{"verify", bad}, exitFailed, "  failed  files          ", "files failed"},
		{"modified report, summary", []string{"verify", bad}, exitFailed, "  ok      content_hash   SHA-256 of text\n", "files failed"},
		{"modified report, problem", []string{"verify", bad}, exitFailed, "\n            report.json: 3 bytes", ""},
		{"modified report, tally", []string{"verify", bad}, exitFailed, "1 of 12 checks failed: files\n", ""},
		{"missing", []string{"verify", filepath.Join(good, "nope")}, exitFailed, "", "nope"},
		{"no folder", []string{"verify"}, exitUsage, "", "one snapshot DIR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectCLI(t, tt.args, tt.want, tt.wantStdout, tt.wantStderr) })
	}
}

// expectCLI runs the CLI and checks its exit code and that stdout and stderr
// contain what they should.
func expectCLI(t *testing.T, args []string, want int, wantStdout, wantStderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(context.Background(), "", args...)
	if code != want {
		t.Errorf("got exit %d, want %d; stderr:\n%s", code, want, stderr)
	}
	if !strings.Contains(stdout, wantStdout) {
		t.Errorf("got stdout %q, want it to contain %q", stdout, wantStdout)
	}
	if !strings.Contains(stderr, wantStderr) {
		t.Errorf("got stderr %q, want it to contain %q", stderr, wantStderr)
	}
}
