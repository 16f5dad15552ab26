package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKeepAsGiven: --keep 0 is refused before any work, into a publish
// folder and a bucket alike, as a keep below one is; it is a number given,
// not a number left out (it kept the default 5).
func TestKeepAsGiven(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("INGEST_WORK_DIR", filepath.Join(dir, "work"))
	for _, place := range []string{filepath.Join(dir, "pub"), "file://" + filepath.ToSlash(filepath.Join(dir, "bucket"))} {
		for _, keep := range []string{"0", "-1"} {
			code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--publish", place, "--keep", keep, "--quiet")
			if code != exitUsage || !strings.Contains(stderr, "--keep") || !strings.Contains(stderr, keep+": want at least 1") {
				t.Errorf("--publish %s --keep %s: got exit %d, %q; want exit 2 naming --keep", place, keep, code, stderr)
			}
		}
	}
	for _, p := range []string{"pub", "bucket"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("got %s written (%v), want nothing before the keep is checked", p, err)
		}
	}
}
