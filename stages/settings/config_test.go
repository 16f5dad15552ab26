package settings

import (
	"errors"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestSourceURLTemplate: a template without {path}, or on a placeholder
// host (what ingest init writes when it finds no address), is refused
// naming its key; a real site's is taken.
func TestSourceURLTemplate(t *testing.T) {
	tests := []struct {
		name, template string
		bad            string // in the error, "" for none
	}{
		{"none", "", ""},
		{"a site's address", "https://opentelemetry.io/{lang}/{path}/", ""},
		{"a site under example.org's subdomain", "https://surf.example.org/{path}/", ""},
		{"no path", "https://opentelemetry.io/docs/", "want a {path}"},
		{"a page within its language", "https://opentelemetry.io/{page}/", ""},
		{"the starter's placeholder", "https://docs.example.org/{path}/", "placeholder"},
		{"the diagnostic's example", "http://Example.org/{path}/", "placeholder"},
		{"with credentials", "https://u:p@docs.example.org/{path}/", "placeholder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			c.SourceURLTemplate = tt.template
			checkSetting(t, c.Validate(), "source_url_template", tt.bad)
		})
	}
}

// TestSourceURLTemplates: each language's template is held to the rules of
// the site's, and named by its own key; a language outside the closed set,
// or an empty template, is refused.
func TestSourceURLTemplates(t *testing.T) {
	tests := []struct {
		name      string
		templates map[string]string
		key, bad  string // the key and what the error says; "" for none
	}{
		{"the default language at the root", map[string]string{"en": "https://opentelemetry.io/{page}/"}, "", ""},
		{"two languages", map[string]string{"en": "https://x.io/{page}/", "pt": "https://x.io/pt/{page}/"}, "", ""},
		{"no path", map[string]string{"pt": "https://x.io/pt/"}, "source_url_templates.pt", "want a {path} or {page}"},
		{"a placeholder", map[string]string{"en": "https://docs.example.org/{page}/"}, "source_url_templates.en", "placeholder"},
		{"a language ingest does not know", map[string]string{"fr": "https://x.io/fr/{page}/"}, "source_url_templates.fr", "closed set"},
		{"empty", map[string]string{"pt": ""}, "source_url_templates.pt", "leave the language out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			c.SourceURLTemplate = "https://x.io/{lang}/{page}/"
			c.SourceURLTemplates = tt.templates
			checkSetting(t, c.Validate(), tt.key, tt.bad)
			if tt.bad == "" {
				opt := c.CorpusOptions()
				for lang, want := range tt.templates {
					if got := opt.SourceURLTemplates[schema.Lang(lang)]; got != want {
						t.Errorf("corpus options: %s's template %q, want %q", lang, got, want)
					}
				}
			}
		})
	}
}

// TestHashWithoutTemplates: a config that names no per-language template
// hashes as it did before they existed (its unchanged nights stay
// unchanged); one that names them hashes otherwise.
func TestHashWithoutTemplates(t *testing.T) {
	c := DefaultConfig()
	c.SourceURLTemplate = "https://x.io/{path}/"
	before := c.Hash()
	c.SourceURLTemplates = map[string]string{}
	if c.Hash() != before {
		t.Error("an empty map of templates changed the config's hash")
	}
	c.SourceURLTemplates = map[string]string{"pt": "https://x.io/pt/{page}/"}
	if c.Hash() == before {
		t.Error("a per-language template did not change the config's hash")
	}
}

// checkSetting: err is nil when bad is "", else a setting error naming key
// and saying bad.
func checkSetting(t *testing.T, err error, key, bad string) {
	t.Helper()
	var se *schema.SettingError
	switch {
	case bad == "" && err != nil:
		t.Errorf("got %v, want no error", err)
	case bad != "" && (err == nil || !strings.Contains(err.Error(), bad)):
		t.Errorf("got %v, want an error saying %q", err, bad)
	case bad != "" && (!errors.As(err, &se) || se.Key != key):
		t.Errorf("got %v, want a setting error naming %s", err, key)
	}
}
