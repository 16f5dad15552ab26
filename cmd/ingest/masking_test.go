package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCompletionInBash sources `ingest completion bash` in a real bash and
// asks it what TAB completes, as bash does on a keypress: a command from
// its first letters, a flag from its first letters. (The output masker once
// rewrote the script's `token=…` lines, and TAB completed nothing.)
func TestCompletionInBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash here")
	}
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// ingest on PATH is this test binary run as the command.
	wrapper := "#!/bin/sh\n" + childEnv + "=1 exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ingest"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	// bash-completion where it is installed (as on a user's machine); else
	// the one function of it the script calls, so a bare bash tests too.
	setup := `if [ -r /usr/share/bash-completion/bash_completion ]; then . /usr/share/bash-completion/bash_completion; else
_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }; fi
source <(ingest completion bash)
complete -p ingest >/dev/null || { echo "no completion registered"; exit 1; }
`
	tests := []struct {
		name  string
		words []string // the command line up to the cursor
		want  string
	}{
		{"a command", []string{"ingest", "ind"}, "index"},
		{"a flag", []string{"ingest", "index", "--cor"}, "--corpus"},
		{"another command's flag", []string{"ingest", "search", "--snap"}, "--snapshot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line := strings.Join(tt.words, " ")
			script := setup + "COMP_WORDS=(" + line + "); COMP_CWORD=" + itoa(len(tt.words)-1) +
				"; COMP_LINE='" + line + "'; COMP_POINT=${#COMP_LINE}; COMP_TYPE=9\n" +
				"__ingest_bash_autocomplete ingest '" + tt.words[len(tt.words)-1] + "' '" + tt.words[len(tt.words)-2] + "'\n" +
				`printf '%s\n' "${COMPREPLY[@]}"`
			cmd := exec.CommandContext(context.Background(), bash, "--norc", "--noprofile", "-c", script)
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v: %s", err, out)
			}
			if got := strings.Fields(string(out)); len(got) != 1 || got[0] != tt.want {
				t.Errorf("TAB after %q: got %q, want %s", line, got, tt.want)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCorpusTextAsWritten: text a corpus holds prints as written, though it
// looks like a credential; only values the command was given are masked.
func TestCorpusTextAsWritten(t *testing.T) {
	const line = "Set OPENAI_API_KEY=<replace_with_your_openai_api_key> and connect to postgres://app:example-pw@db/app?sslmode=disable before you run the agent."
	t.Setenv("OPENAI_API_KEY", "sk-GIVEN-secret-42")
	c := t.TempDir()
	doc := "---\ntitle: Agent setup\nsource: https://docs.example.org/agent/\n---\n\n# Agent setup\n\n" + line + "\n\nThe agent reads sk-GIVEN-secret-42 from its environment.\n"
	if err := os.WriteFile(filepath.Join(c, "setup.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", snap, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"search", []string{"search", "--snapshot", snap, "--floor", "0", "how do I set the api key"}}, // a one-document corpus: the floor is not what this checks
		{"search --json", []string{"search", "--snapshot", snap, "--floor", "0", "--json", "how do I set the api key"}},
		{"chunk", []string{"chunk", filepath.Join(c, "setup.md")}},
	} {
		args := tt.args
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range []string{"OPENAI_API_KEY=<replace_with_your_openai_api_key>", "postgres://app:example-pw@db/app"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("got %s, want %s in it as written", stdout, want)
				}
			}
			if strings.Contains(stdout+stderr, "sk-GIVEN-secret-42") {
				t.Errorf("got the given API key in %s", stdout)
			}
		})
	}
}

// TestConfigFileSecretsMasked: a credential the config file holds joins
// the secrets the output masks, wherever a command prints the value.
func TestConfigFileSecretsMasked(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "ingest.yaml")
	if err := os.WriteFile(cfg, []byte("source_url_template: \"https://docs-user:tpl-CFGSECRET@docs.example/{path}/\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"config", "--config", cfg}, {"config", "--config", cfg, "--json"}} {
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if !strings.Contains(stdout, "docs.example/{path}/") {
			t.Errorf("%v: got %s, want the template shown", args, stdout)
		}
		if strings.Contains(stdout+stderr, "tpl-CFGSECRET") {
			t.Errorf("%v: got the config file's password in %s", args, stdout)
		}
	}
}
