package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneCheckOfSettings: a bad setting fails ingest config, index --plan
// and index alike, before any work (nothing written), named by the line of
// the file that set it, or by the flag that did; so whatever passes ingest
// config runs.
func TestOneCheckOfSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		yaml  string
		flags []string
		want  string // in stderr; CONFIG stands for the file's path
	}{
		{"a language outside the closed set", "workers: 2\ndefault_lang: pt-BR\n", nil,
			`CONFIG:2: default_lang: "pt-BR" is not in the closed set of languages: want en or pt (pt-BR is written pt)`},
		{"a model of no kind", "llm: olama:qwen2.5:7b\n", nil, `CONFIG:1: llm: "olama:qwen2.5:7b": want none, ollama:MODEL or openai:MODEL`},
		{"an embedder that cannot embed this way", "embedder: bge-m3\n", nil, `CONFIG:1: embedder: "bge-m3"`},
		{"a server of no kind", "hosts:\n  olama: http://gpu:11434\n", nil, `CONFIG:2: hosts.olama: no server kind "olama": did you mean ollama?`},
		{"plan rates unread", "plan_rate: fast\n", nil, `CONFIG:1: plan_rate: "fast": want PREFILL[,DECODE[,EMBED]]`},
		{"a model timeout out of range", "model_timeout: 10ms\n", nil, `CONFIG:1: model_timeout: 10ms: want 1s to 24h`},
		{"a bad flag over a good file", "llm: none\n", []string{"--llm", "mistral"}, `--llm: "mistral"`},
		{"every one at once", "default_lang: de\nchunk: {max: 0}\n", nil, "CONFIG:1: default_lang"},
	}
	commands := []struct {
		name string
		args []string
	}{
		{"config", []string{"config"}},
		{"index --plan", []string{"index", "--plan"}},
		{"index", []string{"index"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "c.yaml")
			if err := os.WriteFile(cfg, []byte(tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "CONFIG", cfg)
			for _, c := range commands {
				out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "")+"-snap")
				args := append(append(append([]string(nil), c.args...), "--config", cfg, "--corpus", fixtureCorpus, "--out", out), tt.flags...)
				code, _, stderr := runCLI(context.Background(), "", args...)
				if code != exitUsage || !strings.Contains(stderr, want) {
					t.Errorf("%s: got exit %d, stderr %q; want %d with %q", c.name, code, stderr, exitUsage, want)
				}
				if _, err := os.Stat(out); err == nil {
					t.Errorf("%s: got %s written, want nothing before the check", c.name, out)
				}
			}
		})
	}
}
