package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// TestInitI18nSites: on MkDocs i18n sites (testdata/i18nsites, one txtar a
// site: mkdocs-static-i18n in both its formats and both its layouts), the
// config init writes makes index give every page the language and the
// address the site gives it, leave out the languages ingest cannot read,
// and expand the includes. A fixture's "want" file names the corpus
// folder, the globs the config must exclude, and each page kept as
// "path lang url".
func TestInitI18nSites(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "i18nsites", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			site := t.TempDir()
			var want []string
			corpus, exclude := "", []string(nil)
			for _, f := range ar.Files {
				if f.Name != "want" {
					p := filepath.Join(site, filepath.FromSlash(f.Name))
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, f.Data, 0o644)
					continue
				}
				for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
					switch k, v, _ := strings.Cut(l, " "); k {
					case "corpus":
						corpus = v
					case "exclude":
						exclude = append(exclude, v)
					default:
						want = append(want, l)
					}
				}
			}
			code, _, stderr := runCLI(context.Background(), "", "init", site)
			if code != exitOK {
				t.Fatalf("init: exit %d:\n%s", code, stderr)
			}
			config := filepath.Join(site, "ingest.yaml")
			text, _ := os.ReadFile(config)
			for _, g := range exclude {
				if !strings.Contains(string(text), `"`+g+`"`) {
					t.Errorf("the config excludes no %s:\n%s", g, text)
				}
			}
			snap := filepath.Join(t.TempDir(), "snap")
			code, _, stderr = runCLI(context.Background(), "", "index", "--corpus", filepath.Join(site, corpus), "--config", config, "--out", snap, "--quiet")
			if code != exitOK {
				t.Fatalf("index with init's config: exit %d:\n%s\n%s", code, stderr, text)
			}
			got, texts := pagesIn(t, snap)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got pages\n  %s\nwant\n  %s\nwith the config\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), text)
			}
			if strings.Contains(texts, "{%") {
				t.Errorf("an include is left in the chunks:\n%s", texts)
			}
		})
	}
	t.Run("the include is expanded", func(t *testing.T) {
		// suffix-v0's manifest pages include image.en.md: its sentence is in them.
		ar, err := txtar.ParseFile(filepath.Join("testdata", "i18nsites", "suffix-v0.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		site := t.TempDir()
		for _, f := range ar.Files {
			p := filepath.Join(site, filepath.FromSlash(f.Name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, f.Data, 0o644)
		}
		if code, _, stderr := runCLI(context.Background(), "", "init", site); code != exitOK {
			t.Fatalf("init: exit %d:\n%s", code, stderr)
		}
		snap := filepath.Join(t.TempDir(), "snap")
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", filepath.Join(site, "site", "content"), "--config", filepath.Join(site, "ingest.yaml"), "--out", snap, "--quiet"); code != exitOK {
			t.Fatalf("index: exit %d:\n%s", code, stderr)
		}
		if _, texts := pagesIn(t, snap); strings.Count(texts, "built from the Dockerfile") != 2 {
			t.Errorf("got the included sentence %d times, want 2 (once a manifest page):\n%s", strings.Count(texts, "built from the Dockerfile"), texts)
		}
	})
}

// pagesIn is a snapshot's documents, one "path lang url" each, sorted, and
// its chunks' text.
func pagesIn(t *testing.T, snap string) ([]string, string) {
	t.Helper()
	cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	seen := map[string]bool{}
	var pages []string
	var texts strings.Builder
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		texts.WriteString(c.Text + "\n")
		if !seen[c.DocPath] {
			seen[c.DocPath] = true
			pages = append(pages, c.DocPath+" "+string(c.Lang)+" "+c.SourceURL)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pages)
	return pages, texts.String()
}
