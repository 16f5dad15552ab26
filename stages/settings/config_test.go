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
		{"the starter's placeholder", "https://docs.example.org/{path}/", "placeholder"},
		{"the diagnostic's example", "http://Example.org/{path}/", "placeholder"},
		{"with credentials", "https://u:p@docs.example.org/{path}/", "placeholder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			c.SourceURLTemplate = tt.template
			err := c.Validate()
			var se *schema.SettingError
			switch {
			case tt.bad == "" && err != nil:
				t.Errorf("got %v, want no error", err)
			case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
				t.Errorf("got %v, want an error saying %q", err, tt.bad)
			case tt.bad != "" && (!errors.As(err, &se) || se.Key != "source_url_template"):
				t.Errorf("got %v, want a setting error naming source_url_template", err)
			}
		})
	}
}
