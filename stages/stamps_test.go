package stages

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestStamps: a run records each file's stamp and input hash, and the
// next run takes the input hash of a file whose stamp is unchanged without
// reading it (a made-up hash in the stamps is believed, so the document is
// made again; --rehash reads it, and finds the corpus unchanged). A file written since,
// even at its old size with its modification time set back, is read: the
// snapshot is the one a run from scratch makes. A document that mentions
// an include has no stamp: what it includes may change under it.
func TestStamps(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps are read on Linux only")
	}
	t.Parallel()
	settled := func() { time.Sleep(1100 * time.Millisecond) } // past corpus.settle: a file just written has no stamp
	dir := copyCorpus(t, "../corpus/ocean", wholeExtra)
	tmp := t.TempDir()
	stamps := filepath.Join(tmp, "cache", "stamps.tsv")
	prev, scratch := filepath.Join(tmp, "prev"), filepath.Join(tmp, "scratch")
	opt := Options{ToolVersion: "test", Stamps: stamps}
	settled()
	mustRun(t, testConfig(dir, prev, 2), opt)
	b, err := os.ReadFile(stamps)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	if len(lines) < 25 || bytes.Contains(b, []byte("included.md\t")) || bytes.Contains(b, []byte("unresolved.md\t")) {
		t.Fatalf("got %d stamps:\n%s\nwant one a document but those that mention an include", len(lines), b)
	}
	const always = 1 // unresolved.md, whose include is missing, is always made again

	forge := func(path string) { // the recorded input hash of path, made up
		t.Helper()
		out := strings.Replace(string(b), path+"\t", path+"\tforged-", 1)
		i := strings.Index(out, path+"\tforged-")
		if i < 0 {
			t.Fatalf("no stamp of %s", path)
		}
		line := out[i : i+strings.IndexByte(out[i:], '\n')]
		f := strings.Split(line, "\t")
		out = strings.Replace(out, line, path+"\t"+strings.TrimPrefix(f[1], "forged-")+"\t"+strings.Repeat("1", 64), 1)
		if err := os.WriteFile(stamps, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		edit func()
		opt  Options
		made int
	}{
		{"unchanged but for a stamp's hash: believed, unread", func() { forge("rip-currents.md") }, opt, always + 1},
		{"the same with --rehash: read", func() { forge("rip-currents.md") }, Options{ToolVersion: "test", Stamps: stamps, Rehash: true}, 0},
		{"written at its old size, its time set back", func() {
			p := filepath.Join(dir, "cold-water.md")
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			old, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(old, []byte("cold"))
			copy(old[i:], "COLD")
			if err := os.WriteFile(p, old, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
			settled() // its stamp counts: only its change time tells
		}, opt, always + 1},
	} {
		if b, err = os.ReadFile(stamps); err != nil {
			t.Fatal(err)
		}
		tc.edit()
		res := mustRun(t, testConfig(dir, prev, 2), tc.opt)
		if got := parsed(res.Report); got != tc.made {
			t.Errorf("%s: got %d documents made again, want %d", tc.name, got, tc.made)
		}
		if tc.made == 0 {
			continue // republished: the snapshot is the one before
		}
		os.RemoveAll(scratch)
		mustRun(t, testConfig(dir, scratch, 1), Options{ToolVersion: "test"})
		sameSnapshot(t, prev, scratch)
	}
}
