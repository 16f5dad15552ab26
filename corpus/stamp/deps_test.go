package stamp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestWith: a document's stamp with the paths beside it holds while each
// has its recorded stamp (an absent one still absent) and its own is the
// same; one that cannot be written on a line of the stamps file, or that
// has a path without a stamp, is none.
func TestWith(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stamps are read on Linux only")
	}
	root := t.TempDir()
	inc := filepath.Join(root, "inc.md")
	if err := os.WriteFile(inc, []byte("included\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * Settle)
	found := OfPath(inc, later)
	if found == "" || found == Absent || OfPath(inc, time.Now()) != "" || OfPath(filepath.Join(root, "nope.md"), later) != Absent {
		t.Fatalf("OfPath: got %q for a file, %q for one just written", found, OfPath(inc, time.Now()))
	}
	own := Stamp("1:2:3:4:5")
	outside := t.TempDir()
	for _, tc := range []struct {
		name string
		deps []Dep
		want string // "" none
		same bool
	}{
		{"none beside it", nil, "1:2:3:4:5", true},
		{"found and absent", []Dep{{"nope.md", Absent}, {"inc.md", found}}, "1:2:3:4:5\tnope.md\t-\tinc.md\t" + string(found), true},
		{"absolute, outside the corpus", []Dep{{filepath.Join(outside, "x.md"), Absent}}, "1:2:3:4:5\t" + filepath.Join(outside, "x.md") + "\t-", true},
		{"a path found since", []Dep{{"inc.md", Absent}}, "1:2:3:4:5\tinc.md\t-", false},
		{"a path gone since", []Dep{{"nope.md", found}}, "1:2:3:4:5\tnope.md\t" + string(found), false},
		{"a path with no stamp", []Dep{{"inc.md", ""}}, "", false},
		{"a tab in a path", []Dep{{"a\tb.md", Absent}}, "", false},
		{"too many paths", make([]Dep, maxDeps+1), "", false},
		{"too long", []Dep{{strings.Repeat("x", maxBytes), Absent}}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := With(own, tc.deps)
			if string(got) != tc.want {
				t.Fatalf("With: got %q, want %q", got, tc.want)
			}
			if s := Same(got, own, &Paths{Root: root}, later); s != tc.same {
				t.Errorf("Same: got %v, want %v", s, tc.same)
			}
			if got != "" && Same(got, "9:9:9:9:9", &Paths{Root: root}, later) {
				t.Error("Same with another own stamp: got true")
			}
		})
	}
	if With("", []Dep{{"inc.md", found}}) != "" {
		t.Error("With of no own stamp: got one")
	}

	// Paths reads a path once while it keeps it, and forgets past maxKept.
	ps := &Paths{Root: root}
	if st := ps.Of("new.md", later); st != Absent {
		t.Fatalf("Paths.Of a path with no file: got %q", st)
	}
	if err := os.WriteFile(filepath.Join(root, "new.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := ps.Of("new.md", later); st != Absent {
		t.Errorf("Paths.Of a path kept: got %q, want what it read first", st)
	}
	for i := range maxKept {
		ps.Of(fmt.Sprintf("other-%d.md", i), later)
	}
	if st := ps.Of("new.md", later); st == Absent || st == "" {
		t.Errorf("Paths.Of a path forgotten: got %q, want the file's stamp", st)
	}
}
