package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
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
