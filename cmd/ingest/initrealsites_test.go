package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// realSites are MkDocs i18n sites as their authors publish them, in the
// folder INGEST_SITES names (default ~/.cache/ingest-sites), or, for a site
// that is a Go module's, in the module cache (.ci/run downloads sing-box's,
// GPL-3.0, read in place, 2.3 MB of docs): their address, and what index
// must keep of them.
var realSites = []struct {
	name, base string
	corpus     string // the content folder under the site
	kept       int    // the pages index keeps: the English ones, less the includes
	module     string // the Go module that holds the site, "" when none does
}{
	{"sing-box", "https://sing-box.sagernet.org/", "docs", 146, "github.com/sagernet/sing-box@v1.14.1"}, // v1.14.1: en and zh by suffix
	{"copilot-cli", "https://aws.github.io/copilot-cli/", "site/content", 110, ""},                      // v1.34.1: en and ja by suffix, includes by macros; one page of no text
}

// suffixRe reads a page's path as mkdocs-static-i18n does: page, language
// suffix, extension.
var suffixRe = regexp.MustCompile(`^(.*?)(?:\.([a-z]{2}(?:[-_][A-Za-z]{2})?))?\.md$`)

// TestInitRealI18nSites: on real MkDocs i18n sites, the config init writes
// makes index label every page it keeps with the language of its file
// name's suffix and give it the address the site serves it at (the
// default language at the root, the others under their locale), leaves
// out the languages ingest cannot read, and resolves every include.
func TestInitRealI18nSites(t *testing.T) {
	t.Parallel()
	root := os.Getenv("INGEST_SITES")
	if root == "" {
		home, _ := os.UserHomeDir()
		root = filepath.Join(home, ".cache", "ingest-sites")
	}
	for _, s := range realSites {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			site := filepath.Join(root, s.name)
			if _, err := os.Stat(filepath.Join(site, "mkdocs.yml")); err != nil {
				if site = moduleDir(s.module); site == "" {
					t.Skipf("%s is not here (%v), nor in the module cache: put the site there, or set INGEST_SITES", filepath.Join(root, s.name), err)
				}
			}
			config := filepath.Join(t.TempDir(), "ingest.yaml") // the site's folder may be read-only (the module cache)
			if code, _, stderr := runCLI(context.Background(), "", "init", site, "--output", config); code != exitOK {
				t.Fatalf("init: exit %d:\n%s", code, stderr)
			}
			snap := filepath.Join(t.TempDir(), "snap")
			if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", filepath.Join(site, s.corpus), "--config", config, "--out", snap, "--quiet"); code != exitOK {
				t.Fatalf("index: exit %d:\n%s", code, stderr)
			}
			pages, texts := pagesIn(t, snap)
			wrong := 0
			for _, p := range pages {
				f := strings.Fields(p)
				m := suffixRe.FindStringSubmatch(f[0])
				page, lang := strings.TrimSuffix(strings.TrimSuffix(m[1], "index"), "/"), m[2]
				if lang == "" {
					lang = "en"
				}
				want := s.base
				if lang != "en" {
					want += lang + "/"
				}
				if page != "" {
					want += page + "/"
				}
				if f[1] != lang || f[2] != want {
					if wrong++; wrong <= 5 {
						t.Errorf("%s: got %s at %s, want %s at %s", f[0], f[1], f[2], lang, want)
					}
				}
			}
			if len(pages) < s.kept || wrong > 0 {
				t.Errorf("got %d pages kept, %d of them with a wrong language or address; want %d, none", len(pages), wrong, s.kept)
			}
			diags, _ := os.ReadFile(filepath.Join(snap, "diagnostics.jsonl"))
			if n := strings.Count(string(diags), "include-unresolved"); n > 0 || strings.Contains(texts, "{% include") {
				t.Errorf("got %d unresolved includes, want 0", n)
			}
		})
	}
}

// moduleDir is where the module cache holds module (path@version) when it
// holds its site, "" otherwise.
func moduleDir(module string) string {
	if module == "" {
		return ""
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return ""
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(module))
	if _, err := os.Stat(filepath.Join(dir, "mkdocs.yml")); err != nil {
		return ""
	}
	return dir
}
