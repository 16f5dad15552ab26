package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestEnvironmentReadAtTheEdge(t *testing.T) {
	t.Parallel()
	got := map[string]int{}
	walkGo(t, func(rel string, f *ast.File) {
		if path.Dir(rel) == "cmd/ingest" || path.Dir(rel) == "internal/slowtest" { // the command itself (not its console or config); the slow tests' switch, which only tests import
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
		t.Errorf("%s reads the environment %d times: read it in cmd/ingest and pass the value in", rel, n)
	}
}

// TestWiringOnly: cmd/ingest holds flags and wiring: it tells no bucket URL
// from a folder (package publish/place does, once), places no shard's part
// and downloads no snapshot itself, so it does not import publish/bucket;
// nor does it chunk, read quantities, diff or talk to a model server
// itself. What it shows is its console's (cmd/ingest/internal/console),
// which may render any of these.
func TestWiringOnly(t *testing.T) {
	t.Parallel()
	walkGo(t, func(rel string, f *ast.File) {
		if path.Dir(rel) != "cmd/ingest" {
			return
		}
		// The pipeline's insides: a command calls the package that owns
		// the job (publish/place, stages, stages/preview, stages/estimate, its console…).
		inside := map[string]string{
			"publish/bucket": "ask package publish/place", "chunking": "ask stages/preview or stages", "corpus/markdown": "ask stages/preview or stages",
			"units": "ask its console", "thresholds": "ask its console or stages/snapshot", "artifacts/diff": "ask publish/place",
			"models/remote": "ask what the writer can do (an interface)", "models/ollama": "open models through models/backends",
			"models/openai": "open models through models/backends", "models/pool": "open models through models/backends",
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if why, ok := inside[strings.TrimPrefix(p, "github.com/ocean-safety/ingest/")]; ok {
				t.Errorf("%s imports %s: %s", rel, p, why)
			}
		}
	})
}

const module = "github.com/ocean-safety/ingest/"

// listed is a package of the module as go list describes it.
type listed struct {
	ImportPath, Dir string
	GoFiles         []string
	Imports, Deps   []string // of its non-test files; Deps transitive
}

var listing struct {
	once sync.Once
	pkgs []listed
	err  error
}

// modulePackages is go list of every package of the module, for this
// system: run once for the tests that hold the tree to ARCHITECTURE.md.
func modulePackages(t *testing.T) []listed {
	t.Helper()
	listing.once.Do(func() {
		out, err := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,Imports,Deps", "../../...").Output()
		if err != nil {
			listing.err = fmt.Errorf("go list: %w", err)
			return
		}
		for dec := json.NewDecoder(bytes.NewReader(out)); ; {
			var p listed
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				listing.err = fmt.Errorf("go list: %w", err)
				return
			}
			listing.pkgs = append(listing.pkgs, p)
		}
	})
	if listing.err != nil {
		t.Fatal(listing.err)
	}
	return listing.pkgs
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
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	row := regexp.MustCompile("^\\| `([a-z/-]*[a-z])` \\|.*\\| ([^|]*) \\|$")
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
	for _, p := range modulePackages(t) {
		pkg := strings.TrimPrefix(p.ImportPath, module)
		var got []string
		for _, imp := range p.Imports {
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

// TestModelClientsAlone: the clients of model servers (models/ollama,
// models/openai, models/tei) are opened through models/backends alone, and
// the packages that index, publish, search and diff depend on none of them,
// so a new backend or a change of client touches none of them. No package
// imports Ollama's module: models/ollama speaks its API itself (TestWire),
// and the module brought six others into the binary.
func TestModelClientsAlone(t *testing.T) {
	t.Parallel()
	clients := []string{module + "models/ollama", module + "models/openai", module + "models/tei"}
	deps := map[string][]string{}
	for _, p := range modulePackages(t) {
		pkg := strings.TrimPrefix(p.ImportPath, module)
		deps[pkg] = p.Deps
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "github.com/ollama/ollama/") {
				t.Errorf("%s imports %s: speak Ollama's API through models/ollama", pkg, imp)
			}
			if slices.Contains(clients, imp) && pkg != "models/backends" {
				t.Errorf("%s imports %s: open model servers through models/backends", pkg, imp)
			}
		}
	}
	for _, pkg := range []string{"models", "models/remote", "models/pool", "models/prompt", "models/server", "models/extractive",
		"publish/bucket", "stages", "cmd/ingest/internal/config", "search", "artifacts/diff", "deliver/pgsync", "publish/place", "artifacts", "stages/reuse", "deliver/push"} {
		d, ok := deps[pkg]
		if !ok {
			t.Errorf("%s: no such package", pkg)
		}
		for _, dep := range d {
			if slices.Contains(clients, dep) {
				t.Errorf("%s depends on %s", pkg, dep)
				break
			}
		}
	}
}

// TestGroups: every package of a group imports only the groups of ours and
// the third-party modules ARCHITECTURE.md's group table names for it, and
// holds no more lines of non-test Go than its row allows: a package that
// takes on a second job reaches for a layer or a library its group is not
// for, or outgrows its group. cmd/ may import anything.
func TestGroups(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	type group struct {
		ours, modules []string
		lines         int
	}
	groups := map[string]group{}
	row := regexp.MustCompile("^\\| `([a-z]+)/` \\|[^|]*\\| ([^|]*) \\| ([^|]*) \\| ([0-9]+) \\|$")
	list := func(s string) []string {
		if s = strings.TrimSpace(s); s == "none" {
			return nil
		}
		var out []string
		for _, v := range strings.Split(s, ",") {
			out = append(out, strings.TrimSpace(v))
		}
		return out
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[4])
			groups[m[1]] = group{ours: list(m[2]), modules: list(m[3]), lines: n}
		}
	}
	if len(groups) == 0 {
		t.Fatal("ARCHITECTURE.md has no group table")
	}
	for _, p := range modulePackages(t) {
		pkg := strings.TrimPrefix(p.ImportPath, module)
		name, _, _ := strings.Cut(pkg, "/")
		if name == "cmd" {
			continue
		}
		g, ok := groups[name]
		if !ok {
			t.Errorf("%s: its folder %s/ has no row in ARCHITECTURE.md's group table", pkg, name)
			continue
		}
		n := 0
		for _, f := range p.GoFiles {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				t.Fatal(err)
			}
			n += bytes.Count(b, []byte("\n"))
		}
		if n > g.lines {
			t.Errorf("%s has %d lines of non-test Go, its group %s/ at most %d: it does more than the group's one job; split it", pkg, n, name, g.lines)
		}
		for _, imp := range p.Imports {
			if ours, ok := strings.CutPrefix(imp, module); ok {
				if other, _, _ := strings.Cut(ours, "/"); other != name && !slices.Contains(g.ours, other) {
					t.Errorf("%s imports %s: group %s/ may import %v of ours", pkg, ours, name, g.ours)
				}
				continue
			}
			if first, _, _ := strings.Cut(imp, "/"); !strings.Contains(first, ".") {
				continue // the standard library
			}
			if !slices.ContainsFunc(g.modules, func(m string) bool { return imp == m || strings.HasPrefix(imp, m+"/") }) {
				t.Errorf("%s imports %s: group %s/ may import the modules %v", pkg, imp, name, g.modules)
			}
		}
	}
}
