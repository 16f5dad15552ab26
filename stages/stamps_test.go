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
// an include has the stamps of the paths it was looked for at beside its
// own: believed the same way, and read again once an included file is
// written.
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
	if len(lines) < 25 || !bytes.Contains(b, []byte("\ninc/snippet.txt\t")) && !bytes.Contains(b, []byte("\tinc/snippet.txt\t")) || !bytes.Contains(b, []byte("\tinc/later.txt\t-\t")) {
		t.Fatalf("got %d stamps:\n%s\nwant one a document, with the paths of their includes beside those that have one", len(lines), b)
	}
	const always = 1 // unresolved.md, whose include is missing, is always made again

	forge := func(paths ...string) { // the recorded input hashes of paths, made up
		t.Helper()
		out := b
		for _, path := range paths {
			i := bytes.Index(out, []byte("\n"+path+"\t"))
			if i < 0 {
				t.Fatalf("no stamp of %s", path)
			}
			line := out[i+1 : i+1+bytes.IndexByte(out[i+1:], '\n')]
			forged := string(line[:bytes.LastIndexByte(line, '\t')+1]) + strings.Repeat("1", 64)
			out = bytes.Replace(out, line, []byte(forged), 1)
		}
		if err := os.WriteFile(stamps, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		edit func()
		opt  Options
		made int
	}{
		{"unchanged but for a stamp's hash (one of a page that includes a file too): believed, unread", func() { forge("rip-currents.md", "included.md") }, opt, always + 2},
		{"the same with --rehash: read", func() { forge("rip-currents.md") }, Options{ToolVersion: "test", Stamps: stamps, Rehash: true}, 0},
		{"the file it includes written", func() {
			if err := os.WriteFile(filepath.Join(dir, "inc", "snippet.txt"), []byte("Swim between the red and yellow flags, always.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			settled()
		}, opt, always + 1},
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
