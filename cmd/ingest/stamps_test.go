package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStampsFile: the stamps of a corpus are kept under $INGEST_CACHE_DIR
// when it is set, in the user's cache folder's ingest/ when not, and
// nowhere when it is "off"; a folder reached through a symbolic link has
// the stamps of the folder it names.
func TestStampsFile(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	for _, tc := range []struct {
		env, under string // under: the folder the file is in, "" for none
	}{
		{"", filepath.Join(cache, "ingest", "stamps")},
		{filepath.Join(cache, "mine"), filepath.Join(cache, "mine", "stamps")},
		{"off", ""},
	} {
		t.Setenv("INGEST_CACHE_DIR", tc.env)
		got := stampsFile(root)
		if tc.under == "" {
			if got != "" {
				t.Errorf("INGEST_CACHE_DIR=%q: got %s, want none", tc.env, got)
			}
			continue
		}
		if filepath.Dir(got) != tc.under || !strings.HasSuffix(got, ".tsv") {
			t.Errorf("INGEST_CACHE_DIR=%q: got %s, want a file in %s", tc.env, got, tc.under)
		}
		if viaLink := stampsFile(link); viaLink != got {
			t.Errorf("INGEST_CACHE_DIR=%q: through a link got %s, want %s", tc.env, viaLink, got)
		}
	}
}
