package config

import (
	"strings"
	"testing"
	"time"
)

// TestModels: the model keys read as the flags take them, and the defaults
// are the offline models.
func TestModels(t *testing.T) {
	f, err := Parse([]byte("llm: ollama:qwen2.5:7b\nembedder: tei:bge-m3\nhosts:\n  ollama: http://gpu-0:11434,http://gpu-1:11434\n  tei: http://tei:8080\nmodel_timeout: 30s\nplan_rate: 2000,40\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Models
	if m.LLM != "ollama:qwen2.5:7b" || m.Embedder != "tei:bge-m3" || m.Hosts["ollama"] != "http://gpu-0:11434,http://gpu-1:11434" ||
		m.Hosts["tei"] != "http://tei:8080" || m.ModelTimeout != 30*time.Second || m.PlanRate != "2000,40" {
		t.Errorf("got %+v, want the file's values", m)
	}
	if got := f.Where("hosts.tei"); got != "" {
		t.Errorf("Parse knows no path: got %q, want none", got)
	}
	if got := f.Line("hosts.tei"); got != 5 {
		t.Errorf("got hosts.tei on line %d, want 5", got)
	}
	d := Default().Models
	if d.LLM != "none" || d.Embedder != "builtin" || len(d.Hosts) != 0 || d.ModelTimeout != 2*time.Minute {
		t.Errorf("got defaults %+v, want the offline models", d)
	}
}

// TestUnknownKeys: every unknown key is named with its line and the
// nearest key, in the order of the file; a credential is sent to the
// environment.
func TestUnknownKeys(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // the error's lines
	}{
		{"a typo of a top key", "workers: 2\nworkrs: 3\n", []string{`line 2: unknown key "workrs": did you mean workers?`}},
		{"a typo of a nested key", "chunk:\n  mx: 5\n", []string{`line 2: unknown key "chunk.mx": did you mean chunk.max?`}},
		{"a nested key at the top", "max: 500\n", []string{`line 1: unknown key "max": did you mean chunk.max?`}},
		{"a model key misspelt", "embeder: ollama:bge-m3\n", []string{`line 1: unknown key "embeder": did you mean embedder?`}},
		{"every one at once, in order", "strictt: true\nretrieval:\n  top_kk: 3\n", []string{
			`line 1: unknown key "strictt": did you mean strict?`, `line 3: unknown key "retrieval.top_kk": did you mean retrieval.top_k?`}},
		{"an unknown block once", "nonsense:\n  a: 1\n  b: 2\n", []string{`line 1: unknown key "nonsense"`}},
		{"a credential", "openai_api_key: sk-123\n", []string{`line 1: unknown key "openai_api_key": a secret is never read from the config file`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml))
			if err == nil {
				t.Fatalf("got no error, want %q", tt.want)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("got %q, want %d lines", err, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("got line %q, want %q", lines[i], w)
				}
			}
		})
	}
	if _, err := Parse([]byte("hosts:\n  ollama: http://a\n  mine: http://b\ndiagnostics:\n  paths:\n    \"docs/**\": [oversize]\n")); err != nil {
		t.Errorf("free maps: got %v, want their keys left to the user (checked where they are read)", err)
	}
}

// TestCheckSecrets: an address with credentials in the file is refused,
// named by its line, sent to the environment.
func TestCheckSecrets(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"plain addresses", "hosts:\n  ollama: http://gpu:11434,http://gpu2:11434\n", ""},
		{"a password", "hosts:\n  ollama: http://gpu:11434\n  openai: https://u:p4ss@llm.example.org/v1\n", "config c.yaml: line 3: hosts.openai: an address with credentials; a secret is never read from the config file: give the address in $OPENAI_BASE_URL"},
		{"a user in a pool", "hosts:\n  ollama: http://a:11434, http://me@b:11434\n", "line 2: hosts.ollama"},
	}
	env := map[string]string{"ollama": "OLLAMA_HOST", "openai": "OPENAI_BASE_URL"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			f.path = "c.yaml"
			err = f.CheckSecrets(func(k string) string { return env[k] })
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
