package config

import (
	"maps"
	"strings"
	"testing"
)

// TestStarter: what ingest init writes is a config file (strict: every key
// a known one), valid, and says what was found.
func TestStarter(t *testing.T) {
	for _, c := range []struct {
		name     string
		site     Site
		template string
		exclude  []string
		perLang  map[string]string // source_url_templates
	}{
		{"a Hugo translation with its address", Site{Generator: "hugo", Evidence: "hugo.toml", Content: "content/pt", Lang: "pt", SiteURL: "https://opentelemetry.io/", Partials: []string{"**/_includes/**"}},
			"https://opentelemetry.io/{lang}/{path}/", []string{"**/_includes/**"}, nil},
		{"a site's default language", Site{Generator: "docusaurus", Evidence: "docusaurus.config.js", Content: "docs", Langs: []string{"pt-BR"}, SiteURL: "https://docs.example.com/"},
			"https://docs.example.com/{path}/", nil, nil},
		{"no generator, no address", Site{Content: "notes"}, "https://docs.example.org/{path}/", nil, nil},
		{"a Portuguese site's own language", Site{Generator: "hugo", Evidence: "hugo.toml", Content: "content/pt", Lang: "pt", DefaultLang: "pt", SiteURL: "https://x.org/"},
			"https://x.org/{path}/", nil, nil},
		{"a Hugo site's root: its default language at the root, the others in their folders",
			Site{Generator: "hugo", Evidence: "hugo.yaml", Content: "content", Langs: []string{"en", "pt"}, DefaultLang: "en", SiteURL: "https://opentelemetry.io/"},
			"https://opentelemetry.io/{path}/", nil, map[string]string{"en": "https://opentelemetry.io/{page}/"}},
		{"an MkDocs i18n site whose default is Portuguese",
			Site{Generator: "mkdocs", Evidence: "mkdocs.yml", Content: "docs", Langs: []string{"en", "pt-BR"}, DefaultLang: "pt", SiteURL: "https://mk.example.com/"},
			"https://mk.example.com/{path}/", nil, map[string]string{"pt": "https://mk.example.com/{page}/"}},
		{"a Hugo site with its default language in a folder too",
			Site{Generator: "hugo", Evidence: "hugo.toml", Content: "content", Langs: []string{"en", "pt"}, DefaultLang: "en", DefaultInFolder: true, SiteURL: "https://x.org/"},
			"https://x.org/{path}/", nil, nil},
		{"an MkDocs suffix-layout site: each language under its locale, Chinese left out",
			Site{Generator: "mkdocs", Evidence: "mkdocs.yml", Content: "docs", DefaultLang: "en", Suffix: true, SiteLangs: []string{"en", "pt-BR", "zh"}, SiteURL: "https://s.example.org/"},
			"https://s.example.org/{path}/", []string{"**/*.zh.md"}, map[string]string{"pt": "https://s.example.org/pt-BR/{path}/"}},
		{"an MkDocs folder-layout site with partials and a language ingest cannot read",
			Site{Generator: "mkdocs", Evidence: "mkdocs.yml", Content: "docs", Langs: []string{"en", "ja"}, DefaultLang: "en", SiteURL: "https://f.example.org/",
				Partials: []string{"include/**"}},
			"https://f.example.org/{path}/", []string{"include/**", "ja/**"}, map[string]string{"en": "https://f.example.org/{page}/"}},
		{"a translation the site does not build",
			Site{Generator: "mkdocs", Evidence: "mkdocs.yml", Content: "docs", DefaultLang: "en", Suffix: true, SiteLangs: []string{"en"}, Unbuilt: []string{"pt"}, SiteURL: "https://u.example.org/"},
			"https://u.example.org/{path}/", []string{"**/*.pt.md"}, nil},
		{"a suffix-layout site whose default ingest cannot read",
			Site{Generator: "mkdocs", Evidence: "mkdocs.yml", Content: "docs", DefaultLang: "zh", Suffix: true, SiteLangs: []string{"zh", "en"}, SiteURL: "https://z.example.org/"},
			"https://z.example.org/{path}/", nil, map[string]string{"en": "https://z.example.org/en/{path}/"}},
		{"no address: every template a placeholder index refuses",
			Site{Generator: "hugo", Evidence: "12 _index.md pages", Content: "otel", Langs: []string{"en", "pt"}},
			"https://docs.example.org/{path}/", nil, map[string]string{"en": "https://docs.example.org/{page}/"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := Starter(c.site)
			f, err := Parse([]byte(text))
			if err != nil {
				t.Fatalf("the starter does not parse: %v\n%s", err, text)
			}
			err = f.Validate()
			switch {
			case c.site.SiteURL == "" && (err == nil || !strings.Contains(err.Error(), "source_url_template")):
				t.Errorf("a starter with no address: got %v, want its placeholder refused naming source_url_template", err)
			case c.site.SiteURL != "" && err != nil:
				t.Errorf("the starter is not valid: %v", err)
			}
			if want, _ := ingestLang(c.site.DefaultLang); string(f.Run.DefaultLang) != want && want != "" {
				t.Errorf("got default_lang %q, want %q", f.Run.DefaultLang, want)
			}
			if f.Run.SourceURLTemplate != c.template || strings.Join(f.Run.Exclude, ",") != strings.Join(c.exclude, ",") {
				t.Errorf("got template %q, exclude %v; want %q, %v", f.Run.SourceURLTemplate, f.Run.Exclude, c.template, c.exclude)
			}
			if !maps.Equal(f.Run.SourceURLTemplates, c.perLang) {
				t.Errorf("got source_url_templates %v, want %v", f.Run.SourceURLTemplates, c.perLang)
			}
			if c.site.Generator != "" && !strings.Contains(text, c.site.Evidence) {
				t.Errorf("the starter does not say what the site was recognised by:\n%s", text)
			}
		})
	}
}

// TestExplain: every leaf of the effective config with its source: the
// file (and line), an override, else the default.
func TestExplain(t *testing.T) {
	raw := []byte("chunk:\n  max: 500\nexclude: [\"**/_includes/**\"]\n")
	f, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	f.Run.Workers = 3
	got, err := Explain(f, "ingest.yaml", raw, map[string]Origin{"workers": {FromEnv, "INGEST_WORKERS"}})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Setting{}
	for _, s := range got {
		by[s.Key] = s
	}
	for _, want := range []Setting{
		{Key: "chunk.max", Text: "500", Source: FromFile, Where: "ingest.yaml:2"},
		{Key: "exclude", Text: `["**/_includes/**"]`, Source: FromFile, Where: "ingest.yaml:3"},
		{Key: "workers", Text: "3", Source: FromEnv, Where: "INGEST_WORKERS"},
		{Key: "chunk.unit", Text: "chars", Source: FromDefault},
		{Key: "push.timeout", Text: "1m0s", Source: FromDefault},
		{Key: "diagnostics.paths", Text: "{}", Source: FromDefault},
	} {
		g := by[want.Key]
		if g.Text != want.Text || g.Source != want.Source || g.Where != want.Where {
			t.Errorf("%s: got %q from %s %s, want %q from %s %s", want.Key, g.Text, g.Source, g.Where, want.Text, want.Source, want.Where)
		}
	}
	if s := by["chunk"]; s.Source != "" {
		t.Errorf("chunk: got a value from %s, want a heading", s.Source)
	}
}
