package forgive

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{"index", "search", "inspect", "workers", "k"}
	tests := []struct {
		name, typed, want string
	}{
		{"a swapped pair", "serach", "search"},
		{"a doubled letter", "indexx", "index"},
		{"two edits of a short name", "wrokres", "workers"},
		{"nothing like ours", "frobnicate", ""},
		{"as long as its distance", "x", ""},
		{"case is no edit", "INDEX", "index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Nearest(tt.typed, names); got != tt.want {
				t.Errorf("Nearest(%q): got %q, want %q", tt.typed, got, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"abc", "acb", 1}, // a swap of neighbours is one edit
		{"abc", "ab", 1},
		{"kitten", "sitting", 3},
		{"ação", "acao", 2}, // runes, not bytes
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q): got %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCompletionArgs(t *testing.T) {
	args := []string{"ingest", "completion", "powershell"}
	got := CompletionArgs(args)
	if want := []string{"ingest", "completion", "pwsh"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if args[2] != "powershell" {
		t.Errorf("the caller's args were changed: got %q", args)
	}
}

func TestUnmatched(t *testing.T) {
	have := []string{"table-in-prose", "oversize", "table-in-prose"}
	got := Unmatched([]string{"oversize", "tabel-in-prose", "nothing-like-it"}, have)
	want := []Miss{{"tabel-in-prose", "table-in-prose"}, {"nothing-like-it", ""}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
