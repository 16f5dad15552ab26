package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestForgivingCLI: an unknown command or flag is named as typed, with the
// nearest one, whatever follows it; the completion help's shells all work.
func TestForgivingCLI(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want string // on stderr
	}{
		{"a command misspelt, flags after it", []string{"serach", "--snapshot", "out", "q"}, `unknown command "serach"; did you mean "search"?`},
		{"a command misspelt, nothing after it", []string{"idnex"}, `unknown command "idnex"; did you mean "index"?`},
		{"a command nothing like ours", []string{"frobnicate", "--x"}, `unknown command "frobnicate" (ingest help lists the commands)`},
		{"a flag misspelt, two dashes kept", []string{"index", "--wrokers", "2"}, "unknown flag --wrokers for ingest index; did you mean --workers?"},
		{"a flag misspelt with its value", []string{"search", "--snapshto=out", "q"}, "unknown flag --snapshto for ingest search; did you mean --snapshot?"},
		{"one dash, as typed", []string{"index", "-corpsu", "x"}, "unknown flag -corpsu for ingest index; did you mean --corpus?"},
		{"a flag nothing like ours", []string{"verify", "--zzzzzz", "x"}, "unknown flag --zzzzzz for ingest verify (ingest verify --help lists them)"},
		{"a root flag misspelt", []string{"--verison"}, "unknown flag --verison for ingest; did you mean --version?"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(context.Background(), "", c.args...)
			if code != exitUsage {
				t.Errorf("got exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("got stderr %q, want it to contain %q", stderr, c.want)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("got %d lines on stderr, want one:\n%s", strings.Count(stderr, "\n"), stderr)
			}
		})
	}
	for _, shell := range []string{"bash", "zsh", "fish", "pwsh", "powershell"} {
		t.Run("completion "+shell, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", "completion", shell)
			if code != exitOK || len(stdout) < 100 {
				t.Errorf("got exit %d and %d bytes of script, want 0 and a script; stderr: %s", code, len(stdout), stderr)
			}
		})
	}
}

// TestHelpExamples: every command's help ends with EXAMPLES, and every
// example runs that command with flags it has.
func TestHelpExamples(t *testing.T) {
	t.Parallel()
	byName := map[string]*cli.Command{}
	for _, c := range commands() {
		byName[c.Name] = c
		t.Run(c.Name, func(t *testing.T) {
			code, stdout, _ := runCLI(context.Background(), "", "help", c.Name)
			if code != exitOK || !strings.Contains(stdout, "\nEXAMPLES:\n") {
				t.Fatalf("ingest help %s: exit %d, want 0 and an EXAMPLES section:\n%s", c.Name, code, stdout)
			}
			for _, ex := range examples[c.Name] {
				if !strings.Contains(stdout, "   "+ex+"\n") {
					t.Errorf("help lacks the example %q", ex)
				}
				f := strings.Fields(ex)
				i := slices.Index(f, "ingest")
				if i < 0 || i+1 >= len(f) || f[i+1] != c.Name {
					t.Errorf("example %q does not run ingest %s", ex, c.Name)
					continue
				}
				for _, a := range f[i+2:] {
					if !strings.HasPrefix(a, "-") || a == "-" { // "-": stdout, a value
						continue
					}
					name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
					if !slices.ContainsFunc(c.Flags, func(fl cli.Flag) bool { return slices.Contains(fl.Names(), name) }) {
						t.Errorf("example %q: ingest %s has no flag --%s", ex, c.Name, name)
					}
				}
			}
		})
	}
	for name := range examples {
		if byName[name] == nil {
			t.Errorf("examples of %q, which is no command", name)
		}
	}
}
