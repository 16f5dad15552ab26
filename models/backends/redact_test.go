package backends

import (
	"context"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models"
)

// TestSetupErrorsRedacted: a start-up failure names the server without its
// credentials, before anything prints it.
func TestSetupErrorsRedacted(t *testing.T) {
	_, _, err := Open(context.Background(), models.BackendConfig{LLM: "ollama:qwen2.5:7b", Addrs: map[string]string{"ollama": "http://admin:sk-SECRET@127.0.0.1:1"}})
	if err == nil || strings.Contains(err.Error(), "sk-SECRET") || strings.Contains(err.Error(), "admin") {
		t.Errorf("got %v, want an error without the credentials", err)
	}
}
