package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// tree hashes every file under dir (links as their targets), so a test can
// say a folder was left byte for byte as it was.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[rel] = "-> " + target
			return err
		case d.IsDir():
			return nil
		}
		b, err := os.ReadFile(p)
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFiles(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for p, s := range files {
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyCorpus copies the fixture corpus (minus excluded files) into dir.
func copyCorpus(t *testing.T, dir string, exclude ...string) string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(fixtureCorpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fixtureCorpus, p)
		for _, x := range exclude {
			if rel == x {
				return nil
			}
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return writeFiles(t, dir, files)
}

// TestOutputGuards: a run writes only where it is sure it owns the place.
// Each case sets up a folder with a user's files or a good snapshot, runs
// index, and checks the exit code, the message, and that every file
// already there is byte for byte as it was.
func TestOutputGuards(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup makes the case's folders under root and returns the index
		// arguments and the folder that must stay untouched.
		setup      func(t *testing.T, root string) (args []string, keep string)
		want       int
		wantStderr string
	}{
		{"out holds a user's files", func(t *testing.T, root string) ([]string, string) {
			victim := writeFiles(t, filepath.Join(root, "victim"), map[string]string{"thesis.txt": "four years of work"})
			return []string{"--corpus", fixtureCorpus, "--out", victim}, victim
		}, exitUsage, "victim: not an ingest snapshot (holds thesis.txt); choose an empty or new folder"},
		{"out holds a user's manifest.json and chunks.parquet", func(t *testing.T, root string) ([]string, string) {
			// The names of a snapshot's files, not ingest's: a data
			// pipeline's own export. Before, file names were the test.
			victim := writeFiles(t, filepath.Join(root, "export"), map[string]string{
				"manifest.json":  `{"schema_version": "1", "dataset": "sales-2026", "files": {"chunks.parquet": {"bytes": 4}}}`,
				"chunks.parquet": "PAR1",
			})
			return []string{"--corpus", fixtureCorpus, "--out", victim}, victim
		}, exitUsage, "export: not an ingest snapshot (its manifest.json was not written by ingest)"},
		{"out is a snapshot with a user's file in it", func(t *testing.T, root string) ([]string, string) {
			out := filepath.Join(root, "snap")
			mustIndex(t, fixtureCorpus, out)
			writeFiles(t, out, map[string]string{"notes.txt": "mine"})
			return []string{"--corpus", fixtureCorpus, "--out", out}, out
		}, exitUsage, "holds notes.txt besides a snapshot"},
		{"out is the corpus", func(t *testing.T, root string) ([]string, string) {
			c := copyCorpus(t, filepath.Join(root, "corpus"))
			return []string{"--corpus", c, "--out", c}, c
		}, exitUsage, "is the corpus folder"},
		{"out is inside the corpus", func(t *testing.T, root string) ([]string, string) {
			c := copyCorpus(t, filepath.Join(root, "corpus"))
			return []string{"--corpus", c, "--out", filepath.Join(c, "snapshot")}, c
		}, exitUsage, "is inside the corpus"},
		{"out holds the corpus", func(t *testing.T, root string) ([]string, string) {
			c := copyCorpus(t, filepath.Join(root, "data", "corpus"))
			return []string{"--corpus", c, "--out", filepath.Join(root, "data")}, filepath.Join(root, "data")
		}, exitUsage, "data: holds the corpus"},
		{"publish holds the corpus", func(t *testing.T, root string) ([]string, string) {
			c := copyCorpus(t, filepath.Join(root, "pub", "corpus"))
			return []string{"--corpus", c, "--publish", filepath.Join(root, "pub")}, filepath.Join(root, "pub")
		}, exitUsage, "holds the corpus"},
		{"publish folder holds a user's files", func(t *testing.T, root string) ([]string, string) {
			pub := writeFiles(t, filepath.Join(root, "pub"), map[string]string{"report.docx": "x"})
			return []string{"--corpus", fixtureCorpus, "--publish", pub}, pub
		}, exitUsage, "not an ingest publish folder (holds report.docx)"},
		{"publish folder holds a user's folder with a manifest.json", func(t *testing.T, root string) ([]string, string) {
			// Before, any folder with a manifest.json passed for a snapshot,
			// and --keep pruned it as the oldest.
			pub := filepath.Join(root, "pub")
			if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--publish", pub, "--quiet"); code != exitOK {
				t.Fatalf("first publish: exit %d: %s", code, stderr)
			}
			writeFiles(t, filepath.Join(pub, "mydata"), map[string]string{"manifest.json": "{}", "rows.csv": "a,b\n"})
			return []string{"--corpus", copyCorpus(t, filepath.Join(root, "c"), "waves.md"), "--publish", pub, "--keep", "1", "--allow-shrink"}, pub
		}, exitUsage, "not an ingest publish folder (holds mydata)"},
		{"out is a file", func(t *testing.T, root string) ([]string, string) {
			writeFiles(t, root, map[string]string{"file": "a regular file"})
			return []string{"--corpus", fixtureCorpus, "--out", filepath.Join(root, "file")}, root
		}, exitUsage, "is a file"},
		{"corpus is a file", func(t *testing.T, root string) ([]string, string) {
			out := filepath.Join(root, "snap")
			mustIndex(t, fixtureCorpus, out)
			return []string{"--corpus", filepath.Join(fixtureCorpus, "waves.md"), "--out", out}, out
		}, exitUsage, "waves.md: not a folder"},
		{"empty corpus over a good snapshot", func(t *testing.T, root string) ([]string, string) {
			out := filepath.Join(root, "snap")
			mustIndex(t, fixtureCorpus, out)
			empty := filepath.Join(root, "empty")
			os.Mkdir(empty, 0o755)
			return []string{"--corpus", empty, "--out", out}, out
		}, exitFailed, "no document to publish"},
		{"empty corpus, strict", func(t *testing.T, root string) ([]string, string) {
			out := filepath.Join(root, "snap")
			mustIndex(t, fixtureCorpus, out)
			empty := filepath.Join(root, "empty")
			os.Mkdir(empty, 0o755)
			return []string{"--corpus", empty, "--out", out, "--strict"}, out
		}, exitFailed, "no document to publish"},
		{"every document rejected, publish", func(t *testing.T, root string) ([]string, string) {
			pub := filepath.Join(root, "pub")
			if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--publish", pub, "--quiet"); code != exitOK {
				t.Fatalf("first publish: exit %d: %s", code, stderr)
			}
			c := writeFiles(t, filepath.Join(root, "docs"), map[string]string{"a.md": "# A\n\nNo source line.\n", "b.md": "# B\n\nNone here either.\n"})
			return []string{"--corpus", c, "--publish", pub}, pub
		}, exitFailed, "no document to publish: 2 documents rejected"},
		{"corpus lost most documents", func(t *testing.T, root string) ([]string, string) {
			out := filepath.Join(root, "snap")
			mustIndex(t, fixtureCorpus, out)
			c := copyCorpus(t, filepath.Join(root, "half"), "waves.md", "safety/rules.md", "pt-BR/lore/joaquina.md")
			return []string{"--corpus", c, "--out", out}, out
		}, exitFailed, "shrink from 4 to 1 documents"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			args, keep := tt.setup(t, root)
			before := withoutState(tree(t, keep))
			code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--quiet"}, args...)...)
			if code != tt.want || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("got exit %d, stderr %q; want exit %d and %q", code, stderr, tt.want, tt.wantStderr)
			}
			after := withoutState(tree(t, keep))
			if !maps.Equal(before, after) {
				t.Errorf("got %s changed by a refused run:\nbefore %v\nafter  %v", keep, before, after)
			}
		})
	}
}

// withoutState drops the lock's state folder, which any run may touch.
func withoutState(files map[string]string) map[string]string {
	for p := range files {
		if strings.Contains(p, ".ingest") {
			delete(files, p)
		}
	}
	return files
}

func mustIndex(t *testing.T, corpusDir, out string, flags ...string) string {
	t.Helper()
	args := append([]string{"index", "--corpus", corpusDir, "--out", out, "--quiet"}, flags...)
	if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK && code != exitPartial {
		t.Fatalf("index %s: exit %d: %s", corpusDir, code, stderr)
	}
	return out
}

// TestCorpusLinkFollowed: a --corpus that is a link to a folder is read
// through the link.
func TestCorpusLinkFollowed(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	abs, _ := filepath.Abs(fixtureCorpus)
	link := filepath.Join(root, "corpus")
	if err := os.Symlink(abs, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", link, "--out", filepath.Join(root, "snap"))
	if code != exitOK || !strings.Contains(stderr, ": 4 documents") {
		t.Errorf("got exit %d, stderr %q; want 4 documents read through the link", code, stderr)
	}
}

// TestAllowShrink: --allow-shrink publishes what publish.max_shrink refused.
func TestAllowShrink(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	out := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	c := copyCorpus(t, filepath.Join(root, "half"), "waves.md", "safety/rules.md", "pt-BR/lore/joaquina.md")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out, "--allow-shrink", "--quiet"); code != exitOK {
		t.Fatalf("got exit %d: %s", code, stderr)
	}
	cfg := filepath.Join(root, "c.yaml")
	os.WriteFile(cfg, []byte("publish: {max_shrink: 1.5}\n"), 0o644)
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", out, "--config", cfg); code != exitUsage || !strings.Contains(stderr, "publish.max_shrink") {
		t.Errorf("max_shrink 1.5: got exit %d, %q; want a usage error naming publish.max_shrink", code, stderr)
	}
}

// TestOneRunAtATime: a second run into a target another run holds exits 2
// naming the holder, or waits for it with --wait.
func TestOneRunAtATime(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--out", "--publish"} {
		t.Run(flag, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "target")
			target := publish.OutTarget(dir, "")
			if flag == "--publish" {
				target = publish.PublishTarget(dir, 0, "")
			}
			lock, err := target.Acquire(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, flag, dir, "--quiet")
			if code != exitUsage || !strings.Contains(stderr, "another ingest run is writing it (pid ") {
				t.Errorf("while held: got exit %d, %q; want exit 2 naming the holder", code, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, artifacts.ManifestFile)); err == nil {
				t.Errorf("while held: got a snapshot published")
			}
			go func() {
				time.Sleep(300 * time.Millisecond)
				lock.Release()
			}()
			code, _, stderr = runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, flag, dir, "--quiet", "--wait", "10s")
			if code != exitOK {
				t.Errorf("--wait: got exit %d, %q; want the run to wait for the lock and publish", code, stderr)
			}
		})
	}
}

// TestLeftoversRemoved: the temporary folders a killed run leaves beside
// its target are removed by the next run that holds the lock, and nothing
// else is.
func TestLeftoversRemoved(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	out := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	pub := filepath.Join(root, "pub")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--publish", pub, "--quiet"); code != exitOK {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	crashed := []string{
		filepath.Join(root, ".snap.tmp-1234"), filepath.Join(root, ".snap.tmp-1234.old"),
		filepath.Join(pub, ".publish-5678"), filepath.Join(pub, ".latest.tmp-9abc"), filepath.Join(pub, ".3f2a-9e1c-1a2b.prune-def0"),
	}
	for _, d := range crashed {
		writeFiles(t, d, map[string]string{"chunks.parquet": "half a file"})
	}
	mine := writeFiles(t, filepath.Join(root, ".snapshot-notes"), map[string]string{"x": "a user's hidden folder"})
	for _, args := range [][]string{{"--out", out}, {"--publish", pub}} {
		code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", fixtureCorpus}, args...)...)
		if code != exitOK || !strings.Contains(stderr, "left by an interrupted run") {
			t.Errorf("%v: got exit %d, %q; want the leftovers named", args, code, stderr)
		}
	}
	for _, d := range crashed {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("got %s kept, want it removed", d)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("got %s removed, want a folder the tool did not make left alone", mine)
	}
}

// TestDiffExitCodes: diff --exit-code says 0 same, 1 differs, 2 trouble.
func TestDiffExitCodes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	a := mustIndex(t, fixtureCorpus, filepath.Join(root, "a"))
	c := copyCorpus(t, filepath.Join(root, "c"), "waves.md")
	b := mustIndex(t, c, filepath.Join(root, "b"), "--allow-shrink")
	tests := []struct {
		name     string
		old, new string
		want     int
	}{
		{"same", a, a, exitOK},
		{"differs", a, b, exitFailed},
		{"missing", a, filepath.Join(root, "nope"), exitUsage},
		{"corrupt", a, writeFiles(t, filepath.Join(root, "corrupt"), map[string]string{"manifest.json": "{"}), exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, _, stderr := runCLI(context.Background(), "", "diff", "--exit-code", tt.old, tt.new); code != tt.want {
				t.Errorf("got exit %d (%s), want %d", code, stderr, tt.want)
			}
		})
	}
}

// TestInspectAgreesWithVerify: a document that yields no chunk is counted
// in the manifest, not in the file; inspect accepts it as verify does.
func TestInspectAgreesWithVerify(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "c"))
	writeFiles(t, c, map[string]string{"title-only.md": "# Only a title\nSource: https://example.org/t\n"})
	out := mustIndex(t, c, filepath.Join(root, "snap"))
	for _, cmd := range []string{"verify", "inspect"} {
		if code, stdout, stderr := runCLI(context.Background(), "", cmd, out); code != exitOK {
			t.Errorf("%s: got exit %d: %s%s", cmd, code, stdout, stderr)
		}
	}
}

// TestSmallThings: what a user notices first.
func TestSmallThings(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	snap := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	notSnap := writeFiles(t, filepath.Join(root, "plain"), map[string]string{"a.txt": "x"})
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStderr string
		notStderr  string
	}{
		{"--out / is refused, in plain words", []string{"index", "--corpus", fixtureCorpus, "--out", "/"}, exitUsage, "--out /: ", "mkdirtemp"},
		{"a folder that is not a snapshot", []string{"inspect", notSnap}, exitFailed, "not an ingest snapshot (no manifest.json)", "open "},
		{"verify of a folder that is not a snapshot", []string{"verify", notSnap}, exitFailed, "not an ingest snapshot", "open "},
		{"an unknown flag: one line, no help page", []string{"index", "--bogus"}, exitUsage, "ingest: unknown flag --bogus for ingest index (ingest index --help lists them)\n", "USAGE"},
		{"an unknown command gets a suggestion", []string{"inspekt", snap}, exitUsage, `did you mean "inspect"?`, ""},
		{"help", []string{"help"}, exitOK, "", ""},
		{"completion", []string{"completion", "bash"}, exitOK, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.want || !strings.Contains(stderr, tt.wantStderr) || tt.notStderr != "" && strings.Contains(stderr, tt.notStderr) {
				t.Errorf("got exit %d, %q; want exit %d with %q and without %q", code, stderr, tt.want, tt.wantStderr, tt.notStderr)
			}
			if strings.Count(stderr, "ingest:") > 1 {
				t.Errorf("got the error %d times: %q", strings.Count(stderr, "ingest:"), stderr)
			}
		})
	}
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", snap)
	if code != exitOK || strings.Contains(stderr, " 1 chunks") || strings.Contains(stderr, " 1 documents") {
		t.Errorf("got %q, want singular nouns for one", stderr)
	}
	var rep artifacts.Report
	readJSON(t, filepath.Join(snap, artifacts.ReportFile), &rep)
	if rep.Diagnostics == nil {
		t.Errorf("got report.json diagnostics null on a republish, want []")
	}
}

// TestTenantNotUUID: index refuses a tenant_id that is not a UUID before
// any work, naming the setting (it went into every chunk id, and sync
// failed on it only after the run).
func TestTenantNotUUID(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	cfg := filepath.Join(root, "c.yaml")
	os.WriteFile(cfg, []byte("tenant_id: acme-corp\n"), 0o644)
	out := filepath.Join(root, "snap")
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", out, "--config", cfg)
	if code != exitUsage || !strings.Contains(stderr, `tenant_id: "acme-corp" is not a UUID`) {
		t.Errorf("got exit %d, %q; want exit 2 naming tenant_id", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("got %s written (%v), want nothing", out, err)
	}
}
