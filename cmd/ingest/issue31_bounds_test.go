package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
)

// TestRejectedFilesBounded (issue 31, item 10; issue 34, item 4): a corpus
// with many files that are rejected every night keeps report.json and
// audit.jsonl bounded. Before, 2,500 always-rejected files made a 1.4 MB
// report.json and added 660 KB to audit.jsonl every night (20,000 made
// 19 MB and 5.26 MB). Now the report samples the first
// diagnostics.MaxSampled diagnostics of each code and counts every one,
// diagnostics.jsonl holds each (the night's, not growing night after
// night), and a document rejected again as it was is counted in the run's
// last audit line, not logged again; every count stays exact.
func TestRejectedFilesBounded(t *testing.T) {
	const bad = 2500
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	for i := range bad {
		os.MkdirAll(filepath.Join(c, "bad"), 0o755)
		os.WriteFile(filepath.Join(c, "bad", fmt.Sprintf("b%04d.md", i)), []byte(fmt.Sprintf("no title here %d\n", i)), 0o644)
	}
	out := filepath.Join(root, "out")
	var audit []int64
	for night := range 4 {
		f, _ := os.OpenFile(filepath.Join(c, "waves.md"), os.O_APPEND|os.O_WRONLY, 0)
		fmt.Fprintf(f, "\nNight %d.\n", night) // a changed corpus: the run builds, not republishes
		f.Close()
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out, "--quiet")
		if code != exitPartial {
			t.Fatalf("night %d: got exit %d, want %d (partial): %s", night, code, exitPartial, stderr)
		}
		rep, err := os.Stat(filepath.Join(out, artifacts.ReportFile))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Size() > 32<<10 {
			t.Errorf("night %d: report.json is %d bytes, want at most 32 KiB whatever the rejected files", night, rep.Size())
		}
		var listed struct{ Diagnostics []struct{ Code string } }
		readJSON(t, filepath.Join(out, artifacts.ReportFile), &listed)
		perCode := map[string]int{}
		for _, d := range listed.Diagnostics {
			if perCode[d.Code]++; perCode[d.Code] == diagnostics.MaxSampled+1 {
				t.Errorf("night %d: report.json samples more than %d %s diagnostics", night, diagnostics.MaxSampled, d.Code)
			}
		}
		if n := lineCount(t, filepath.Join(out, artifacts.DiagnosticsFile)); n != 2*bad {
			t.Errorf("night %d: diagnostics.jsonl holds %d lines, want the night's %d diagnostics", night, n, 2*bad)
		}
		a, err := os.Stat(filepath.Join(out, artifacts.AuditFile))
		if err != nil {
			t.Fatal(err)
		}
		audit = append(audit, a.Size())
		m, err := artifacts.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Diagnostics["error"] != bad || m.Diagnostics["warning"] != bad || m.Counts.Rejected != bad {
			t.Errorf("night %d: got %v diagnostics and %d rejected, want %d errors, %d warnings and %d rejected", night, m.Diagnostics, m.Counts.Rejected, bad, bad, bad)
		}
		if got := reportCounts(t, out); got["error"] != bad || got["warning"] != bad {
			t.Errorf("night %d: the report counts %v, want %d errors and %d warnings", night, got, bad, bad)
		}
	}
	for n := 2; n < len(audit); n++ {
		if grew := audit[n] - audit[n-1]; grew > 16<<10 {
			t.Errorf("night %d: audit.jsonl grew %d bytes (%v), want a few lines: the same rejections are not news", n, grew, audit)
		}
	}
	if code, stdout, stderr := runCLI(context.Background(), "", "verify", out); code != exitOK {
		t.Errorf("verify: got exit %d: %s%s", code, stdout, stderr)
	}
}

// reportCounts is the diagnostics a snapshot's report.json counts, by
// severity.
func reportCounts(t *testing.T, snap string) map[string]int {
	t.Helper()
	var r struct {
		ByCode []struct {
			Severity string
			Count    int
		} `json:"diagnostics_by_code"`
	}
	readJSON(t, filepath.Join(snap, artifacts.ReportFile), &r)
	got := map[string]int{}
	for _, c := range r.ByCode {
		got[c.Severity] += c.Count
	}
	return got
}

// lineCount is the number of lines of the file at path.
func lineCount(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// TestSetupDiagnosticsNotRepeated: an unchanged corpus republished night
// after night keeps one copy of the run's own diagnostics (here a name
// with a control character). Before, each unchanged night added the run's
// listing diagnostics to the previous report's, which held them already:
// report.json and the manifest's counts grew by one a night, without end.
func TestSetupDiagnosticsNotRepeated(t *testing.T) {
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	if err := os.WriteFile(filepath.Join(c, "bell\x07.md"), []byte("# Bell\nSource: https://example.org/b\n\nText.\n"), 0o644); err != nil {
		t.Skip("this file system refuses the name:", err)
	}
	out := filepath.Join(root, "out")
	for night := range 3 {
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out, "--quiet"); code != exitOK {
			t.Fatalf("night %d: exit %d: %s", night, code, stderr)
		}
		m, err := artifacts.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		r, err := artifacts.ReadReport(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Diagnostics["warning"] != 1 || len(r.Diagnostics) != 1 {
			t.Errorf("night %d: got %v in the manifest, %d diagnostics in the report; want the one warning", night, m.Diagnostics, len(r.Diagnostics))
		}
	}
}

// TestUnreadableSkipped (issue 31, item 10): a folder the run may not list
// (a root-owned lost+found) and a document it may not open are skipped,
// each named by an error diagnostic, and the run publishes the rest as a
// partial snapshot (exit 3), night after night. Before, either failed the
// whole run (exit 1) and nothing was published.
func TestUnreadableSkipped(t *testing.T) {
	if unprivileged(t) {
		return
	}
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	lost := filepath.Join(c, "lost+found")
	os.MkdirAll(lost, 0o755)
	os.WriteFile(filepath.Join(lost, "x.md"), []byte("# X\n"), 0o644)
	locked := filepath.Join(c, "safety", "locked.md")
	os.WriteFile(locked, []byte("# Locked\nSource: https://example.org/l\n\nText.\n"), 0o644)
	if err := os.Chmod(lost, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(lost, 0o755) // so the test's folder can be removed
	os.Chmod(locked, 0)
	if f, err := os.Open(locked); err == nil {
		f.Close()
		t.Skip("permission bits do not stop this user")
	}
	out := filepath.Join(root, "out")
	for night := range 2 {
		code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out)
		if code != exitPartial {
			t.Fatalf("night %d: got exit %d, want %d (partial): %s", night, code, exitPartial, stderr)
		}
		for _, want := range []string{"lost+found", "safety/locked.md", "unreadable"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("night %d: got no %q in %s", night, want, stderr)
			}
		}
		m, err := artifacts.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if m.Counts.Documents != 4 || m.Counts.Rejected != 1 || m.Diagnostics["error"] != 2 {
			t.Errorf("night %d: got %d documents, %d rejected, diagnostics %v; want 4, 1 and 2 errors", night, m.Counts.Documents, m.Counts.Rejected, m.Diagnostics)
		}
	}
}

// unprivileged runs the test t again in a child process as nobody when
// this process is root, whom no permission bit stops, and reports whether
// it did (the caller returns then): a test of what a run does with a file
// it may not read needs a user that may not read it.
func unprivileged(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	if os.Getenv("INGEST_TEST_UNPRIVILEGED") != "" {
		t.Fatal("still root in the child")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("root, and no setpriv to run the test as another user")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "ingest.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(dst, src)
	src.Close()
	if cerr := dst.Close(); err != nil || cerr != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "INGEST_TEST_UNPRIVILEGED=1", "TMPDIR="+os.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("as nobody: the test did not pass:\n%s", out)
	}
	return true
}
