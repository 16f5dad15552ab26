package reuse

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/corpus/stamp"
)

// TestStampsRoundTrip: what a StampWriter records a StampReader gives back,
// a stamp with the paths beside it (tabs inside) whole; stamps recorded
// under another key (another build or configuration) or for another
// corpus folder are not believed, a path that cannot be written on a line
// (a file name with a newline) is left out, and a line past the bound ends
// the file.
func TestStampsRoundTrip(t *testing.T) {
	dir, root := t.TempDir(), t.TempDir()
	path := StampsPath(dir, root)
	withDeps := stamp.With("1:2:3:4:5", []stamp.Dep{{Path: "inc/a.md", Stamp: stamp.Absent}, {Path: "_includes/a.md", Stamp: "6:7:8:9:10"}})
	lines := []struct {
		path string
		st   stamp.Stamp
		sum  string
	}{
		{"a\nz.md", "0:0:0:0:0", "az"}, // left out, not the end of the file
		{"a.md", "1:1:1:1:1", "aa"},
		{"b.md", withDeps, "bb"},
		{"c.md", stamp.Stamp("2:2:2:2:2\t" + strings.Repeat("x", maxStampLine) + "\t-"), "cc"}, // past the bound: the file ends before it
		{"d.md", "3:3:3:3:3", "dd"},
	}
	w, err := CreateStamps(path, root, "build config")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		w.Add(l.path, l.st, l.sum)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := OpenStamps(path, root, "build config")
	for i, l := range lines {
		st, sum := r.For(l.path)
		if i == 0 || i >= 3 { // the name with a newline; c.md and all after it
			if st != "" || sum != "" {
				t.Errorf("%q: got %q %q, want none", l.path, st, sum)
			}
			continue
		}
		if st != l.st || sum != l.sum {
			t.Errorf("%s: got %q %q, want %q %q", l.path, st, sum, l.st, l.sum)
		}
	}
	r.Close()
	for _, other := range []struct{ root, key string }{{root, "another build"}, {t.TempDir(), "build config"}} {
		r := OpenStamps(path, other.root, other.key)
		if st, sum := r.For("a.md"); st != "" || sum != "" {
			t.Errorf("root %s, key %q: got %q %q, want none", other.root, other.key, st, sum)
		}
		r.Close()
	}
}
