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
