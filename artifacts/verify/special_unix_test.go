//go:build unix

package verify_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/stages"
)

// TestVerifySpecialFiles: a snapshot file that is not a regular file — a
// link to /dev/zero (an endless read), a named pipe with no writer (an open
// that never returns) — is a failed check naming what the file is, and
// verify returns. Before, verify read /dev/zero forever and waited on the
// pipe forever, and sync (which verifies first) with it.
func TestVerifySpecialFiles(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name       string
		file       string
		make       func(path string) error
		wantFailed string
		wantText   string
	}{
		{"chunks.parquet links to /dev/zero", artifacts.ChunksFile, func(p string) error { return os.Symlink("/dev/zero", p) },
			verify.CheckFiles, "chunks.parquet is a character device, not a regular file"},
		{"report.json is a named pipe", artifacts.ReportFile, func(p string) error { return syscall.Mkfifo(p, 0o644) },
			verify.CheckFiles, "report.json is a named pipe, not a regular file"},
		{"manifest.json is a named pipe", artifacts.ManifestFile, func(p string) error { return syscall.Mkfifo(p, 0o644) },
			verify.CheckManifest, "manifest.json is a named pipe, not a regular file"},
		{"chunks.parquet is a named pipe", artifacts.ChunksFile, func(p string) error { return syscall.Mkfifo(p, 0o644) },
			verify.CheckParquet, "chunks.parquet is a named pipe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copySnapshot(t, good)
			path := filepath.Join(dir, tt.file)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := tt.make(path); err != nil {
				t.Skipf("cannot make the special file: %v", err)
			}
			rep := verifyWithin(t, dir)
			c := rep.Check(tt.wantFailed)
			if c.Status != verify.CheckFailed || !strings.Contains(strings.Join(c.Problems, "\n"), tt.wantText) {
				t.Errorf("got %s %s %q, want it failed with %q", c.Name, c.Status, c.Problems, tt.wantText)
			}
			if _, err := verify.VerifyFiles(dir); err == nil {
				t.Errorf("VerifyFiles: got no error, want the snapshot refused")
			}
		})
	}
}

// verifyWithin runs Verify and fails the test if it has not returned in a
// minute: what a hang looks like in a test, not a speed target.
func verifyWithin(t *testing.T, dir string) *verify.VerifyReport {
	t.Helper()
	type result struct {
		rep *verify.VerifyReport
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := verify.VerifyContext(context.Background(), dir)
		done <- result{rep, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.rep
	case <-time.After(time.Minute):
		t.Fatalf("verify %s has not returned after a minute", dir)
		return nil
	}
}
