package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestIgnoreDiagnostics: a code ignored by --ignore or by the config's
// diagnostics: block is not printed and does not fail --strict, but
// report.json still has it, marked; an error is never ignored; a code
// that matched nothing is named with the nearest one the run had.
func TestIgnoreDiagnostics(t *testing.T) {
	t.Parallel()
	corpus := t.TempDir()
	copyTree(t, fixtureCorpus, corpus)
	os.MkdirAll(filepath.Join(corpus, "blog"), 0o755)
	// A warning: no title, the file name is used.
	os.WriteFile(filepath.Join(corpus, "blog", "untitled.md"), []byte("---\nsource: https://example.org/u\n---\n\nWaves break on the bar at low tide.\n"), 0o644)
	config := func(yaml string) string {
		p := filepath.Join(t.TempDir(), "ingest.yaml")
		os.WriteFile(p, []byte(yaml), 0o644)
		return p
	}
	const warning = "blog/untitled.md:1: warning:"
	for _, c := range []struct {
		name      string
		args      []string
		want      int
		printed   bool   // the warning's line on stderr
		stderr    string // also on stderr
		ignored   bool   // report.json marks it
		noReport  bool
		corpusBad bool // add a rejected document
	}{
		{name: "strict fails on the warning", args: []string{"--strict"}, want: exitFailed, printed: true, noReport: true},
		{name: "--ignore accepts it", args: []string{"--strict", "--ignore", "missing-title"}, want: exitOK, ignored: true, stderr: "1 diagnostics ignored"},
		{name: "a comma list", args: []string{"--strict", "--ignore", "oversize,missing-title"}, want: exitOK, ignored: true},
		{name: "the config's ignore", args: []string{"--strict", "--config", config("diagnostics:\n  ignore: [missing-title]\n")}, want: exitOK, ignored: true},
		{name: "the config's paths", args: []string{"--strict", "--config", config("diagnostics:\n  paths:\n    \"blog/**\": [missing-title]\n")}, want: exitOK, ignored: true},
		{name: "every code of a path", args: []string{"--strict", "--config", config("diagnostics:\n  paths:\n    \"blog/*.md\": [\"*\"]\n")}, want: exitOK, ignored: true},
		{name: "a path that does not match", args: []string{"--strict", "--config", config("diagnostics:\n  paths:\n    \"docs/**\": [missing-title]\n")}, want: exitFailed, printed: true, noReport: true},
		{name: "a typo is named", args: []string{"--ignore", "mising-title"}, want: exitOK, printed: true, stderr: "note: --ignore mising-title matched no diagnostic of this run; did you mean missing-title?"},
		{name: "an error is never ignored", args: []string{"--ignore", "missing-source,missing-title"}, want: exitPartial, ignored: true, corpusBad: true, stderr: "bad.md:1: error: missing source URL"},
		{name: "a bad glob is a usage error", args: []string{"--config", config("diagnostics:\n  paths:\n    \"[\": [x]\n")}, want: exitUsage, noReport: true, stderr: "diagnostics.paths: \"[\" is not a valid glob"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := corpus
			if c.corpusBad {
				dir = t.TempDir()
				copyTree(t, corpus, dir)
				os.WriteFile(filepath.Join(dir, "bad.md"), []byte("# Bad\n\nno source here\n"), 0o644)
			}
			out := filepath.Join(t.TempDir(), "snap")
			code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", dir, "--out", out}, c.args...)...)
			if code != c.want {
				t.Fatalf("got exit %d, want %d:\n%s", code, c.want, stderr)
			}
			if got := strings.Contains(stderr, warning); got != c.printed {
				t.Errorf("warning printed: got %v, want %v:\n%s", got, c.printed, stderr)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("got stderr %q, want it to contain %q", stderr, c.stderr)
			}
			b, err := os.ReadFile(filepath.Join(out, artifacts.ReportFile))
			if c.noReport {
				if err == nil {
					t.Errorf("a snapshot was published, want none")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var rep artifacts.Report
			json.Unmarshal(b, &rep)
			found := false
			for _, d := range rep.Diagnostics {
				if d.Code == "missing-title" {
					found = true
					if d.Ignored != c.ignored {
						t.Errorf("report.json's missing-title: ignored %v, want %v", d.Ignored, c.ignored)
					}
				}
				if d.Severity == "error" && d.Ignored {
					t.Errorf("an error marked ignored: %+v", d)
				}
			}
			if !found {
				t.Errorf("report.json lacks the missing-title warning: ignored diagnostics are still reported")
			}
		})
	}
}
