package site

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// tree writes files (path → content) under a new folder.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	return dir
}

func TestDetect(t *testing.T) {
	hugo := tree(t, map[string]string{
		"hugo.toml":                    "baseURL = \"https://opentelemetry.io/\"\ntitle = \"x\"\n",
		"content/en/_index.md":         "# Home\n",
		"content/en/docs/a.md":         "# A\n",
		"content/en/_includes/part.md": "x\n",
		"content/pt/_index.md":         "# Início\n",
		"content/pt/docs/a.md":         "# A\n",
	})
	docusaurus := tree(t, map[string]string{
		"docusaurus.config.js":       "module.exports = {\n  url: 'https://docs.example.com',\n};\n",
		"docs/intro.mdx":             "# Intro\n",
		"docs/guide/_category_.json": "{}",
		"docs/guide/a.md":            "# A\n",
		"i18n/pt-BR/docusaurus-plugin-content-docs/current/intro.mdx": "# Intro\n",
	})
	mkdocs := tree(t, map[string]string{"mkdocs.yml": "site_name: X\nsite_url: https://mk.example.org/docs/\n", "docs/index.md": "# X\n", "docs/a.md": "# A\n"})
	copied := tree(t, map[string]string{"_index.md": "# Home\n", "docs/_index.md": "# Docs\n", "docs/a.md": "# A\n", "_includes/p.md": "x\n"})
	plain := tree(t, map[string]string{"a.md": "# A\n", "b/c.md": "# C\n"})
	for _, c := range []struct {
		name, dir string
		want      Layout
	}{
		{"a Hugo site", hugo, Layout{Generator: Hugo, Content: filepath.Join(hugo, "content"), Langs: []string{"en", "pt"}, SiteURL: "https://opentelemetry.io/", Partials: []string{"**/_includes/**"}, Documents: 5}},
		{"a Hugo translation", filepath.Join(hugo, "content", "pt"), Layout{Generator: Hugo, Content: filepath.Join(hugo, "content", "pt"), Lang: "pt", SiteURL: "https://opentelemetry.io/", Documents: 2}},
		{"a Docusaurus site", docusaurus, Layout{Generator: Docusaurus, Content: filepath.Join(docusaurus, "docs"), Langs: []string{"pt-BR"}, SiteURL: "https://docs.example.com/", Documents: 2}},
		{"an MkDocs site", mkdocs, Layout{Generator: MkDocs, Content: filepath.Join(mkdocs, "docs"), SiteURL: "https://mk.example.org/docs/", Documents: 2}},
		{"Hugo content copied out", copied, Layout{Generator: Hugo, Content: copied, Partials: []string{"**/_includes/**"}, Documents: 4}},
		{"plain Markdown", plain, Layout{Content: plain, Documents: 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(c.dir)
			if err != nil {
				t.Fatal(err)
			}
			if got.Generator != c.want.Generator || got.Content != c.want.Content || got.Lang != c.want.Lang || !slices.Equal(got.Langs, c.want.Langs) ||
				got.SiteURL != c.want.SiteURL || !slices.Equal(got.Partials, c.want.Partials) || got.Documents != c.want.Documents {
				t.Errorf("got %+v,\nwant %+v", got, c.want)
			}
			if c.want.Generator != "" && got.Evidence == "" {
				t.Errorf("no evidence for %s", got.Generator)
			}
		})
	}
	if _, err := Detect(filepath.Join(plain, "a.md")); err == nil {
		t.Errorf("a file: got no error, want one")
	}
}

// TestLanguages: a language folder is named by a known language and holds
// pages; the default language is the one the site's config names.
func TestLanguages(t *testing.T) {
	for _, c := range []struct {
		name        string
		files       map[string]string
		langs       []string
		defaultLang string
	}{
		{"Hugo with assets beside its languages", map[string]string{
			"hugo.toml": "defaultContentLanguage = \"pt\"\n[languages.pt]\nweight = 1\n", "content/pt/a.md": "# A\n", "content/en/a.md": "# A\n",
			"content/js/app.js": "x", "content/ui/a.md": "# not a language\n", "content/de/img.png": "x"},
			[]string{"en", "pt"}, "pt"},
		{"Hugo's own default", map[string]string{"hugo.yaml": "baseURL: https://x.org/\n", "content/en/a.md": "# A\n"}, []string{"en"}, "en"},
		{"Hugo in YAML", map[string]string{"config.toml": "", "hugo.yaml": "defaultContentLanguage: pt-br\n", "content/a.md": "# A\n"}, nil, "pt-br"},
		{"Docusaurus i18n", map[string]string{
			"docusaurus.config.ts": "export default {\n  i18n: {\n    defaultLocale: 'pt-BR',\n    locales: ['pt-BR', 'en'],\n  },\n};\n",
			"docs/a.mdx":           "# A\n", "i18n/en/docusaurus-plugin-content-docs/current/a.mdx": "# A\n"}, []string{"en"}, "pt-BR"},
		{"MkDocs static i18n", map[string]string{
			"mkdocs.yml":   "plugins:\n  - search\n  - i18n:\n      docs_structure: folder\n      languages:\n        - locale: en\n          name: English\n        - locale: pt\n          default: true\n          name: Português\n",
			"docs/en/a.md": "# A\n", "docs/pt/a.md": "# A\n", "docs/css/x.css": "x"}, []string{"en", "pt"}, "pt"},
		{"MkDocs i18n, default first", map[string]string{
			"mkdocs.yml": "plugins:\n  - i18n:\n      languages:\n        - default: true\n          locale: pt\n        - locale: en\n", "docs/a.md": "# A\n"}, nil, "pt"},
		{"Material's theme language", map[string]string{"mkdocs.yml": "theme:\n  name: material\n  language: pt\n", "docs/a.md": "# A\n"}, nil, "pt"},
		{"no config", map[string]string{"en/a.md": "# A\n", "js/a.js": "x"}, []string{"en"}, ""},
		{"a section named like a language", map[string]string{"0-readme.md": "# A\n", "os/log/readme.md": "# Log\n", "web/readme.md": "# Web\n"}, nil, ""},
		{"Docusaurus's sections are never languages", map[string]string{
			"docusaurus.config.js": "module.exports = {i18n: {defaultLocale: 'zh-Hans', locales: ['zh-Hans']}};\n",
			"docs/os/readme.md":    "# A\n", "docs/id/readme.md": "# B\n"}, nil, "zh-Hans"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(tree(t, c.files))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Langs, c.langs) || got.DefaultLang != c.defaultLang {
				t.Errorf("got languages %v, default %q; want %v, %q", got.Langs, got.DefaultLang, c.langs, c.defaultLang)
			}
		})
	}
}

// TestDefaultInFolder: only a Hugo site that says so serves its default
// language under that language's folder.
func TestDefaultInFolder(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  bool
	}{
		{"Hugo's own default", map[string]string{"hugo.toml": "baseURL = \"https://x.org/\"\n", "content/en/a.md": "# A\n"}, false},
		{"Hugo TOML, in its folder", map[string]string{"hugo.toml": "defaultContentLanguageInSubdir = true\n", "content/en/a.md": "# A\n"}, true},
		{"Hugo YAML, in its folder", map[string]string{"hugo.yaml": "defaultContentLanguage: en\ndefaultContentLanguageInSubdir: true\n", "content/en/a.md": "# A\n"}, true},
		{"Hugo, said false", map[string]string{"hugo.yaml": "defaultContentLanguageInSubdir: false\n", "content/en/a.md": "# A\n"}, false},
		{"MkDocs", map[string]string{"mkdocs.yml": "defaultContentLanguageInSubdir: true\n", "docs/en/a.md": "# A\n"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Detect(tree(t, c.files))
			if err != nil {
				t.Fatal(err)
			}
			if got.DefaultInFolder != c.want {
				t.Errorf("got DefaultInFolder %v, want %v", got.DefaultInFolder, c.want)
			}
		})
	}
}
