package redact

import (
	"slices"
	"testing"
)

func TestCommandLine(t *testing.T) {
	got := CommandLine([]string{"ingest", "--ollama-host=http://u:p@h:1", "--to", "postgres://x"})
	want := []string{"ingest", "--ollama-host=http://u:p@h:1", "http://u:p@h:1", "--to", "postgres://x"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
