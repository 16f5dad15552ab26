package models

import (
	"context"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:11434", "http://127.0.0.1:11434"},
		{"http://admin:sk-SECRET@host:1/v1", "http://***@host:1/v1"},
		{"https://host/v1?api_key=SECRET&model=x", "https://host/v1?api_key=***&model=x"},
		{"https://host/?access_token=SECRET", "https://host/?access_token=***"},
		{"not a url admin:pw@host //user:pw@host", "not a url admin:pw@host //***@host"},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSetupErrorsRedacted: a start-up failure names the server without its
// credentials, before anything prints it.
func TestSetupErrorsRedacted(t *testing.T) {
	_, _, err := OpenBackends(context.Background(), BackendConfig{LLM: "ollama:qwen2.5:7b", OllamaHost: "http://admin:sk-SECRET@127.0.0.1:1"})
	if err == nil || strings.Contains(err.Error(), "sk-SECRET") || strings.Contains(err.Error(), "admin") {
		t.Errorf("got %v, want an error without the credentials", err)
	}
	t.Setenv("OPENAI_API_KEY", "sk-PLANTED")
	if got := Secrets([]string{"http://u-user:pw-pass@h/?token=tok-en"}, ""); strings.Join(got, " ") != "sk-PLANTED u-user pw-pass tok-en" {
		t.Errorf("got secrets %q", got)
	}
}
