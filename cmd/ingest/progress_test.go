package main

import (
	"bytes"
	"testing"
)

// TestProgressMode: bars only on a terminal that can draw them.
func TestProgressMode(t *testing.T) {
	var buf bytes.Buffer
	t.Setenv("TERM", "dumb")
	if got := progressMode(&buf, false); got != "plain" {
		t.Errorf("a pipe: got %s, want plain", got)
	}
	if got := progressMode(&buf, true); got != "quiet" {
		t.Errorf("--quiet: got %s, want quiet", got)
	}
}
