package site

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMkdocsI18n: mkdocs-static-i18n read in its two formats and two
// layouts, with docs_dir and the macros plugin's include_dir.
func TestMkdocsI18n(t *testing.T) {
	en, zh := SiteLang{Locale: "en", Default: true, Build: true}, SiteLang{Locale: "zh", Build: true}
	for _, c := range []struct {
		name      string
		files     map[string]string
		structure string
		langs     []SiteLang
		def       string
		content   string   // relative to the site
		includes  []string // relative to the content folder
		partials  []string
	}{
		{"1.x, suffix, sing-box's", map[string]string{
			"mkdocs.yml": "site_url: https://sing-box.sagernet.org/\nplugins:\n  - search\n  - i18n:\n      docs_structure: suffix\n      fallback_to_default: true\n      languages:\n" +
				"        - build: true\n          default: true\n          locale: en\n          name: English\n" +
				"        - build: true\n          default: false\n          locale: zh\n          name: 简体中文\n          nav_translations:\n            Home: 开始\n            locale: no\n\n            Change Log: 更新日志\n" +
				"markdown_extensions:\n  - admonition\n",
			"docs/index.md": "# A\n", "docs/index.zh.md": "# A\n"}, Suffix, []SiteLang{en, zh}, "en", "docs", nil, nil},
		{"before 1.0, suffix by default, docs_dir and macros' include_dir (copilot-cli's)", map[string]string{
			"mkdocs.yml": "docs_dir: 'site/content'\nplugins:\n  - search\n  - redirects:\n      redirect_maps:\n        'a.md': 'b.en.md'\n" +
				"  - i18n:\n      default_language: en\n      languages:\n        en: english\n        ja: japanese\n      material_alternate: false\n" +
				"  - macros:\n      include_dir: site/content/docs/include\ntheme:\n  language: ja\n",
			"site/content/index.en.md": "# A\n", "site/content/docs/include/image.md": "x\n"},
			Suffix, []SiteLang{en, {Locale: "ja", Build: true}}, "en", "site/content", []string{"docs/include"}, []string{"docs/include/**"}},
		{"1.x, folder, items at the key's indent, default last", map[string]string{
			"mkdocs.yml":   "plugins:\n- i18n:\n    docs_structure: folder\n    languages:\n    - locale: en\n      name: English\n    - locale: pt-BR\n      default: true\n      build: true\n",
			"docs/en/a.md": "# A\n", "docs/pt-BR/a.md": "# A\n"}, Folder, []SiteLang{{Locale: "en", Build: true}, {Locale: "pt-BR", Default: true, Build: true}}, "pt-BR", "docs", nil, nil},
		{"before 1.0, a map of settings, a language not built, the default left out", map[string]string{
			"mkdocs.yml":   "plugins:\n  - i18n:\n      default_language: pt\n      docs_structure: folder\n      languages:\n        en:\n          name: English\n          build: false\n        fr:\n          name: Français\n",
			"docs/pt/a.md": "# A\n"}, Folder, []SiteLang{{Locale: "pt", Default: true, Build: true}, {Locale: "en"}, {Locale: "fr", Build: true}}, "pt", "docs", nil, nil},
		{"an include_dir outside the content folder", map[string]string{
			"mkdocs.yml": "plugins:\n  - macros:\n      include_dir: includes\n", "docs/a.md": "# A\n", "includes/p.md": "x\n"}, "", nil, "", "docs", []string{"../includes"}, nil},
		{"no i18n plugin", map[string]string{"mkdocs.yml": "plugins:\n  - search\n  - i18n-other:\n      languages: [en]\nmarkdown_extensions:\n  - i18n:\n      languages:\n        - locale: en\n          default: true\n", "docs/a.md": "# A\n"}, "", nil, "", "docs", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := tree(t, c.files)
			got, err := Detect(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got.Structure != c.structure || !reflect.DeepEqual(got.SiteLangs, c.langs) || got.DefaultLang != c.def {
				t.Errorf("got structure %q, languages %+v, default %q; want %q, %+v, %q", got.Structure, got.SiteLangs, got.DefaultLang, c.structure, c.langs, c.def)
			}
			if want := filepath.Join(dir, filepath.FromSlash(c.content)); got.Content != want {
				t.Errorf("got content %s, want %s", got.Content, want)
			}
			if !slices.Equal(got.Includes, c.includes) || !slices.Equal(got.Partials, c.partials) {
				t.Errorf("got includes %v, partials %v; want %v, %v", got.Includes, got.Partials, c.includes, c.partials)
			}
		})
	}
}

// FuzzReadMkdocs: any mkdocs.yml is read without a panic, and a language
// read is one the config names.
func FuzzReadMkdocs(f *testing.F) {
	f.Add("plugins:\n  - i18n:\n      languages:\n        - locale: en\n          default: true\n        - locale: zh\n")
	f.Add("plugins:\n- i18n:\n    default_language: en\n    languages:\n      en: english\n      ja:\n        build: false\n- macros:\n    include_dir: inc\n")
	f.Add("docs_dir: 'x'\nplugins:\n  - i18n\n  -\n - i18n:\nlanguages:\n-")
	f.Fuzz(func(t *testing.T, config string) {
		c := readMkdocs(config)
		for _, l := range c.langs {
			if l.Locale != "" && !strings.Contains(config, l.Locale) {
				t.Errorf("got locale %q, which the config does not name", l.Locale)
			}
		}
	})
}
