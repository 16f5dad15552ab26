//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestReadersSpecialFiles: verify and sync (which verifies first) return,
// exit 1, naming the file, when a snapshot's report.json is a named pipe or
// its chunks.parquet a link to /dev/zero. Before, both waited forever.
func TestReadersSpecialFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		make       func(string) error
		want       string
	}{
		{"report.json is a named pipe", artifacts.ReportFile, func(p string) error { return syscall.Mkfifo(p, 0o644) }, "report.json is a named pipe"},
		{"chunks.parquet links to /dev/zero", artifacts.ChunksFile, func(p string) error { return os.Symlink("/dev/zero", p) }, "chunks.parquet is a character device"},
	}
	for _, tt := range tests {
		snap := filepath.Join(t.TempDir(), "snap")
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", snap, "--quiet"); code != exitOK {
			t.Fatalf("index: exit %d: %s", code, stderr)
		}
		path := filepath.Join(snap, tt.file)
		os.Remove(path)
		if err := tt.make(path); err != nil {
			t.Skipf("cannot make the special file: %v", err)
		}
		for _, args := range [][]string{
			{"verify", snap},
			{"sync", "--snapshot", snap, "--to", "postgres://ingest:pw@127.0.0.1:1/kb", "--tenant", "8a1f6c1e-0f4e-4d55-9d8e-2f1b3c4d5e6f", "--plan"},
		} {
			t.Run(tt.name+"/"+args[0], func(t *testing.T) {
				want := tt.want
				if args[0] == "sync" {
					want = "does not verify (files" // and names verify, which says more
				}
				code, stdout, stderr := runWithin(t, time.Minute, args...)
				if code != exitFailed || !strings.Contains(stdout+stderr, want) {
					t.Errorf("got exit %d, %s%s; want exit %d naming %q", code, stdout, stderr, exitFailed, want)
				}
			})
		}
	}
}

// runWithin runs the CLI and fails the test if it has not returned within
// d: what a hang looks like in a test, not a speed target.
func runWithin(t *testing.T, d time.Duration, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("ingest %s has not returned after %s", strings.Join(args, " "), d)
		return 0, "", ""
	}
}
