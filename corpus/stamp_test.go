package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/corpus/stamp"
)

// TestInputStamped: a file whose stamp is the one recorded is not read
// (the recorded input hash comes back, even a made-up one); one written
// since is read, whether it kept its size and had its modification time
// set back (touch -r) or was replaced by another file; a file that
// mentions an include directive in a format that cannot list its includes
// (TestStampedDocuments has those of one that can), or was changed in the
// last second, has no stamp; Parse gives the stamp InputStamped does.
func TestInputStamped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps are read on Linux only")
	}
	fs := Formats{{Name: "md", Extensions: []string{".md"}, New: func(o Options) Format { return named{"md", o} }}}
	root := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a.md", "Alpha text.\n")
	write("inc.md", "--8<-- \"a.md\"\n")
	r := fs.Reader(root, Options{})
	if _, st := r.InputStamped("a.md", "", ""); st != "" {
		t.Errorf("a file written just now: got stamp %q, want none", st)
	}
	defer func() { now = time.Now }()
	now = func() time.Time { return time.Now().Add(2 * stamp.Settle) }
	sum, st0 := r.InputStamped("a.md", "", "")
	if sum != Digest([]byte("Alpha text.\n")) || st0 == "" {
		t.Fatalf("got %q, st0 %q; want the file's hash and a st0", sum, st0)
	}
	if p, _ := r.Parse("a.md"); p.Stamp != st0 {
		t.Errorf("Parse: got st0 %q, want %q", p.Stamp, st0)
	}
	if got, _ := r.InputStamped("a.md", st0, "recorded"); got != "recorded" {
		t.Errorf("an unchanged st0: got %q, want the recorded input hash, the file unread", got)
	}
	if _, st := r.InputStamped("inc.md", "", ""); st != "" {
		t.Errorf("a file that mentions an include: got st0 %q, want none", st)
	}
	if p, _ := r.Parse("inc.md"); p.Stamp != "" {
		t.Errorf("Parse of a file that mentions an include: got st0 %q, want none", p.Stamp)
	}

	info, err := os.Stat(filepath.Join(root, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		edit func()
	}{
		{"written in place, its size and time set back", func() {
			p := write("a.md", "Omega text.\n")
			if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced", func() {
			write("a.new", "Gamma text.\n")
			if err := os.Rename(filepath.Join(root, "a.new"), filepath.Join(root, "a.md")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		time.Sleep(10 * time.Millisecond) // past the clock tick of the last change
		tc.edit()
		raw, err := os.ReadFile(filepath.Join(root, "a.md"))
		if err != nil {
			t.Fatal(err)
		}
		got, st := r.InputStamped("a.md", st0, "recorded")
		if got != Digest(raw) || st == st0 {
			t.Errorf("%s: got %q, st0 %q; want the new bytes' hash and another st0", tc.name, got, st)
		}
		st0 = st
	}
}
