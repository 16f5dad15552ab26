package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLinkedModules: the default binary links exactly the modules
// testdata/modules.txt lists. A new heavy import fails here with the
// module's name before it reaches a release; a module the binary stopped
// linking must leave the list, so the list stays what the binary is.
func TestLinkedModules(t *testing.T) {
	t.Parallel()
	want := readModuleList(t, filepath.Join("testdata", "modules.txt"))
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var got []string
	for _, m := range strings.Fields(string(out)) {
		if m != strings.TrimSuffix(module, "/") && !slices.Contains(got, m) {
			got = append(got, m)
		}
	}
	for _, m := range got {
		if !slices.Contains(want, m) {
			t.Errorf("the binary links %s, which testdata/modules.txt does not list: weigh it (go mod why -m %s; go version -m on a build) and add it under what brings it, or drop the import", m, m)
		}
	}
	for _, m := range want {
		if !slices.Contains(got, m) {
			t.Errorf("testdata/modules.txt lists %s, which the binary no longer links: remove it", m)
		}
	}
	if len(got) > 50 {
		t.Errorf("the binary links %d modules, over the 50 of issue 30's budget", len(got))
	}
}

// readModuleList reads one module path per line; blank lines and # comments
// are skipped, and a path listed twice is an error.
func readModuleList(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mods []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if slices.Contains(mods, line) {
			t.Errorf("%s:%d: %s listed twice", name, n, line)
		}
		mods = append(mods, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return mods
}
