package main

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/schema"
)

// pagesOf indexes corpus with the config init wrote for site and returns
// each document's source URL and languages, by path.
func pagesOf(t *testing.T, site, corpus string) (urls map[string]string, langs map[string]schema.Lang) {
	t.Helper()
	code, _, stderr := runCLI(context.Background(), "", "init", site)
	if code != exitOK {
		t.Fatalf("init: exit %d:\n%s", code, stderr)
	}
	snap := filepath.Join(t.TempDir(), "snap")
	code, _, stderr = runCLI(context.Background(), "", "index", "--corpus", corpus, "--config", filepath.Join(site, "ingest.yaml"), "--out", snap, "--quiet")
	if code != exitOK {
		b, _ := os.ReadFile(filepath.Join(site, "ingest.yaml"))
		t.Fatalf("index with init's config: exit %d:\n%s\n%s", code, stderr, b)
	}
	cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	urls, langs = map[string]string{}, map[string]schema.Lang{}
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		urls[c.DocPath], langs[c.DocPath] = c.SourceURL, c.Lang
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return urls, langs
}

// TestInitSiteURLs: what init writes for a site with a folder a language
// gives every page its real address, the default language's at the site's
// root and the others' under their language, as each generator serves
// them (what one source_url_template could not say).
func TestInitSiteURLs(t *testing.T) {
	t.Parallel()
	page := "# Page\n\nThe waves break on the sand bar at low tide, and the current runs along the beach.\n"
	pagina := "# Página\n\nAs ondas quebram no banco de areia na maré baixa, e a corrente corre ao longo da praia.\n"
	for _, c := range []struct {
		name   string
		files  map[string]string
		corpus string
		want   map[string]string // path → source URL
	}{
		{"Hugo, English at the root", map[string]string{
			"hugo.yaml":            "baseURL: https://surf.example.com/\ndefaultContentLanguage: en\nlanguages:\n  en: {weight: 1}\n  pt: {weight: 2}\n",
			"content/en/_index.md": page, "content/en/docs/tides.md": page,
			"content/pt/_index.md": pagina, "content/pt/docs/tides.md": pagina,
		}, "content", map[string]string{
			"en/_index.md": "https://surf.example.com/", "en/docs/tides.md": "https://surf.example.com/docs/tides/",
			"pt/_index.md": "https://surf.example.com/pt/", "pt/docs/tides.md": "https://surf.example.com/pt/docs/tides/",
		}},
		{"Hugo, every language in its folder", map[string]string{
			"hugo.toml":            "baseURL = \"https://surf.example.com/\"\ndefaultContentLanguageInSubdir = true\n",
			"content/en/_index.md": page, "content/pt/docs/tides.md": pagina,
		}, "content", map[string]string{"en/_index.md": "https://surf.example.com/en/", "pt/docs/tides.md": "https://surf.example.com/pt/docs/tides/"}},
		{"MkDocs static i18n, Portuguese the default", map[string]string{
			"mkdocs.yml":       "site_name: Praia\nsite_url: https://praia.example.com/\nplugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n        - locale: pt\n          default: true\n        - locale: en\n",
			"docs/pt/index.md": pagina, "docs/pt/mares.md": pagina,
			"docs/en/index.md": page, "docs/en/mares.md": page,
		}, "docs", map[string]string{
			"pt/index.md": "https://praia.example.com/", "pt/mares.md": "https://praia.example.com/mares/",
			"en/index.md": "https://praia.example.com/en/", "en/mares.md": "https://praia.example.com/en/mares/",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			for p, body := range c.files {
				p = filepath.Join(root, filepath.FromSlash(p))
				os.MkdirAll(filepath.Dir(p), 0o755)
				os.WriteFile(p, []byte(body), 0o644)
			}
			urls, langs := pagesOf(t, root, filepath.Join(root, c.corpus))
			for p, want := range c.want {
				if urls[p] != want {
					t.Errorf("%s: source URL %q, want %q", p, urls[p], want)
				}
				if wantLang := schema.Lang(strings.SplitN(p, "/", 2)[0]); langs[p] != wantLang {
					t.Errorf("%s: language %q, want %q", p, langs[p], wantLang)
				}
			}
			if len(urls) != len(c.want) {
				t.Errorf("got %d documents, want %d: %v", len(urls), len(c.want), urls)
			}
		})
	}
}

// TestInitOtelSite: init on the OpenTelemetry site as its repository lays
// it out (its hugo.yaml's address and languages, content/en and
// content/pt), then index with what init wrote: every page labelled with its
// folder's language and given the address opentelemetry.io serves it at
// (the English pages at the root, the Portuguese under /pt/).
func TestInitOtelSite(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(otelCorpus); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", otelCorpus, err)
	}
	if testing.Short() {
		t.Skip("a real corpus: about 10 s")
	}
	slowtest.Mark(t, "the OpenTelemetry site initialised and indexed: about 10 s")
	site := t.TempDir()
	// The keys of the site's own hugo.yaml (open-telemetry/opentelemetry.io)
	// that say where its pages are served.
	os.WriteFile(filepath.Join(site, "hugo.yaml"), []byte("baseURL: https://opentelemetry.io\ndefaultContentLanguage: en\nlanguages:\n  en:\n    languageName: English\n  pt:\n    languageName: Português\n"), 0o644)
	content := filepath.Join(site, "content")
	if err := os.CopyFS(content, os.DirFS(otelCorpus)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(content, "README.md"))
	urls, langs := pagesOf(t, site, content)
	wrongLang, wrongURL, n := 0, 0, 0
	for p, u := range urls {
		n++
		folder, rest, _ := strings.Cut(p, "/")
		if langs[p] != schema.Lang(folder) {
			wrongLang++
			t.Logf("%s: language %s", p, langs[p])
		}
		rest = strings.TrimSuffix(rest, path.Ext(rest))
		rest = strings.TrimSuffix(strings.TrimSuffix(rest, "_index"), "index")
		want := "https://opentelemetry.io/" + rest
		if folder == "pt" {
			want = "https://opentelemetry.io/pt/" + rest
		}
		if want = strings.TrimSuffix(want, "/") + "/"; !strings.HasPrefix(u, "https://opentelemetry.io/") {
			continue // a page naming its own source (a blog post's canonical address)
		} else if u != want {
			wrongURL++
			if wrongURL <= 5 {
				t.Errorf("%s: source URL %q, want %q", p, u, want)
			}
		}
	}
	if n < 800 || wrongLang*100 > n || wrongURL > 0 {
		t.Errorf("%d pages: %d with another language than their folder's (want ≤ 1%%), %d with another address than the site's", n, wrongLang, wrongURL)
	}
	t.Logf("%d pages: %d labelled with another language than their folder's, %d with another address", n, wrongLang, wrongURL)
}
