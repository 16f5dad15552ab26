package settings

import (
	"strings"
	"testing"
)

// TestDefaultLangClosed: default_lang is written on chunks as it is, so
// only a value of the closed set passes; a spelling a document may use
// (pt-BR) is told its value.
func TestDefaultLangClosed(t *testing.T) {
	tests := []struct {
		name, lang, want string // want: in the error; "" none
	}{
		{"en", "en", ""},
		{"pt", "pt", ""},
		{"a document's spelling", "pt-BR", `default_lang: "pt-BR" is not in the closed set of languages: want en or pt (pt-BR is written pt)`},
		{"no such language", "de", `default_lang: "de" is not in the closed set of languages: want en or pt`},
		{"empty", "", `default_lang: "" is not in the closed set`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			c.DefaultLang = tt.lang
			err := c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
