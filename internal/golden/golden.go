// Package golden compares test outputs with the golden files in testdata/
// and rewrites them under -update: one flag, declared once, for every
// package with goldens. `just update-golden` runs exactly those packages
// with -update (`go test ./... -update` does not work: a package that does
// not import this one has no such flag); TestRecipeListsEveryPackage keeps
// the recipe's list true.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/ with what the tests produce")

// Updating reports whether the tests run with -update.
func Updating() bool { return *update }

// Check compares got with the file at path, or rewrites the file under
// -update. A difference names its first differing line.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n%s", path, FirstDiff(string(got), string(want)))
	}
}

// CheckSection compares got with the section name of the txtar archive ar
// read from file, or rewrites that section (adding it if missing) under
// -update.
func CheckSection(t testing.TB, file string, ar *txtar.Archive, name string, got []byte) {
	t.Helper()
	for i, f := range ar.Files {
		if f.Name != name {
			continue
		}
		if *update {
			ar.Files[i].Data = got
			writeArchive(t, file, ar)
			return
		}
		if !bytes.Equal(f.Data, got) {
			t.Errorf("section %q of %s differs (run with -update to accept):\n%s", name, file, FirstDiff(string(got), string(f.Data)))
		}
		return
	}
	if !*update {
		t.Fatalf("%s has no %q section; run with -update", file, name)
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: got})
	writeArchive(t, file, ar)
}

func writeArchive(t testing.TB, file string, ar *txtar.Archive) {
	t.Helper()
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FirstDiff describes the first line where got and want differ.
func FirstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) && i < len(w); i++ {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ":\ngot:  " + g[i] + "\nwant: " + w[i]
		}
	}
	return "lengths differ: got " + strconv.Itoa(len(g)) + " lines, want " + strconv.Itoa(len(w))
}
