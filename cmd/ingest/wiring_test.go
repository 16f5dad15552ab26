package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// modelsEnv are the environment reads left in package models, by file: a
// TODO for the split of models (issue 22), whose callers should pass these
// values in (cmd/ingest reads OLLAMA_HOST and OPENAI_BASE_URL already, as
// flags): backend.go OLLAMA_HOST; ollama.go OLLAMA_HOST, OLLAMA_AUTH;
// openai.go OPENAI_BASE_URL, the API key variable.
var modelsEnv = map[string]int{"models/backend.go": 1, "models/ollama.go": 2, "models/openai.go": 2}

// TestEnvironmentReadAtTheEdge: only commands (cmd/ingest, ci/…) read the
// environment; a library is told what it needs. Package models still does
// in the places modelsEnv lists, and no more.
func TestEnvironmentReadAtTheEdge(t *testing.T) {
	got := map[string]int{}
	walkGo(t, func(rel string, f *ast.File) {
		if strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "ci/") {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "os" && slices.Contains([]string{"Getenv", "LookupEnv", "Environ", "ExpandEnv"}, sel.Sel.Name) {
					got[rel]++
				}
			}
			return true
		})
	})
	for rel, n := range got {
		if want := modelsEnv[rel]; n != want {
			t.Errorf("%s reads the environment %d times, want %d: read it in cmd/ingest and pass the value in", rel, n, want)
		}
	}
	for rel, want := range modelsEnv {
		if got[rel] == 0 && want > 0 {
			t.Errorf("%s reads the environment no more: take it off modelsEnv (%d)", rel, want)
		}
	}
}

// TestWiringOnly: cmd/ingest holds flags and wiring: it tells no bucket URL
// from a folder (package place does, once), places no shard's part and
// downloads no snapshot itself, so it does not import bucket.
func TestWiringOnly(t *testing.T) {
	walkGo(t, func(rel string, f *ast.File) {
		if !strings.HasPrefix(rel, "cmd/ingest/") {
			return
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/ocean-safety/ingest/bucket" {
				t.Errorf("%s imports bucket: ask package place", rel)
			}
		}
	})
}

// walkGo parses every non-test Go file of the module and calls fn with its
// path from the module's root.
func walkGo(t *testing.T, fn func(rel string, f *ast.File)) {
	t.Helper()
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fn(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestArchitectureGraph: ARCHITECTURE.md's package table is the import
// graph: a row for every package of the module, each listing the packages
// of ours it imports (as go list says, for this system), none other.
func TestArchitectureGraph(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\|.*\\| ([^|]*) \\|$")
	for _, line := range strings.Split(string(b), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			var imps []string
			if deps := strings.TrimSpace(m[2]); deps != "none" {
				for _, d := range strings.Split(deps, ",") {
					imps = append(imps, strings.TrimSpace(d))
				}
			}
			rows[m[1]] = imps
		}
	}
	const module = "github.com/ocean-safety/ingest/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], module)
		var got []string
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) {
				got = append(got, strings.TrimPrefix(imp, module))
			}
		}
		want, ok := rows[pkg]
		delete(rows, pkg)
		slices.Sort(want)
		switch {
		case !ok:
			t.Errorf("ARCHITECTURE.md has no row for %s (imports %v)", pkg, got)
		case !slices.Equal(got, want):
			t.Errorf("ARCHITECTURE.md: %s imports %v, the table says %v", pkg, got, want)
		}
	}
	for pkg := range rows {
		t.Errorf("ARCHITECTURE.md has a row for %s, which is no package", pkg)
	}
}
