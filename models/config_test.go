package models

import "testing"

func TestSpec(t *testing.T) {
	tests := []struct{ name, want string }{
		{"builtin-hash-v1", "builtin"},
		{"ollama:bge-m3@sha256:0123456789ab", "ollama:bge-m3"},
		{"openai:text-embedding-3-small@sha256:abc", "openai:text-embedding-3-small"},
		{"ollama:qwen2.5:7b@sha256:0123456789ab+prompt-v3", "ollama:qwen2.5:7b"},
	}
	for _, tc := range tests {
		if got := Spec(tc.name); got != tc.want {
			t.Errorf("Spec(%q): got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestKeyEnv(t *testing.T) {
	if got := (BackendConfig{}).KeyEnv(); got != DefaultOpenAIKeyEnv {
		t.Errorf("got %q, want %q", got, DefaultOpenAIKeyEnv)
	}
	if got := (BackendConfig{OpenAIKeyEnv: "MY_KEY"}).KeyEnv(); got != "MY_KEY" {
		t.Errorf("got %q, want MY_KEY", got)
	}
}
