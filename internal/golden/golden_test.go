package golden

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRecipeListsEveryPackage: `just update-golden` names every package
// whose tests import this one, and no other (one left out keeps stale
// goldens; one without the flag fails the recipe).
func TestRecipeListsEveryPackage(t *testing.T) {
	jf, err := os.ReadFile("../../justfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^update-golden:\n\s+go test ((?:\./\S+ )+)-update$`).FindSubmatch(jf)
	if m == nil {
		t.Fatal("the justfile has no update-golden recipe of the form `go test ./a ./b -update`")
	}
	listed := strings.Fields(string(m[1]))
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "../../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const mod = "github.com/ocean-safety/ingest/"
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && slices.Contains(f[1:], mod+"internal/golden") {
			want = append(want, "./"+strings.TrimPrefix(f[0], mod))
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("update-golden lists %v, want %v (the packages whose tests import internal/golden)", listed, want)
	}
}
