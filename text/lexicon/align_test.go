package lexicon

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestPageKey(t *testing.T) {
	tests := []struct {
		doc  string
		lang schema.Lang
		want string
	}{
		{"en/docs/x.md", schema.LangEN, "docs/x.md"},
		{"pt/docs/x.md", schema.LangPT, "docs/x.md"},
		{"pt-BR/lore/x.md", schema.LangPT, "lore/x.md"},
		{"content/pt_br/x.md", schema.LangPT, "content/x.md"},
		{"lore/x.md", schema.LangEN, "lore/x.md"},
		{"docs/x.pt.md", schema.LangPT, "docs/x.md"},
		{"docs/pt.md", schema.LangPT, "docs/pt.md"}, // a page named for the language is not its folder
		{"docs/en/pt/x.md", schema.LangPT, "docs/en/x.md"},
	}
	for _, tt := range tests {
		if got := pageKey(tt.doc, tt.lang); got != tt.want {
			t.Errorf("%s (%s): got %q, want %q", tt.doc, tt.lang, got, tt.want)
		}
	}
}

// page writes a page's passages: one a section, its text named for the
// page and the section ("x-2" is the second section of x, in any
// language), so a test reads which sections were paired.
func page(doc string, lang schema.Lang, sections ...string) []Passage {
	var out []Passage
	for i, s := range sections {
		path := strings.Split(s, "/")
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(doc, "en/"), "pt/"), ".md")
		out = append(out, Passage{Doc: doc, Lang: lang, Section: path, Text: fmt.Sprintf("%s-%d %s", name, i+1, strings.Repeat("palavra ", 5))})
	}
	return out
}

func pairs(ps []Pair) string {
	var out []string
	for _, p := range ps {
		out = append(out, strings.Fields(p.A.Text)[0]+"="+strings.Fields(p.B.Text)[0])
	}
	return strings.Join(out, " ")
}

func TestAlign(t *testing.T) {
	join := func(pss ...[]Passage) []Passage {
		var out []Passage
		for _, ps := range pss {
			out = append(out, ps...)
		}
		return out
	}
	tests := []struct {
		name string
		ps   []Passage
		want string
	}{
		{"same sections, same depths: one for one",
			join(page("en/a.md", schema.LangEN, "Intro", "Setup", "Setup/Linux"), page("pt/a.md", schema.LangPT, "Introdução", "Configuração", "Configuração/Linux")),
			"a-1=a-1 a-2=a-2 a-3=a-3"},
		{"a page without its translation is not paired",
			join(page("en/a.md", schema.LangEN, "Intro"), page("en/b.md", schema.LangEN, "Intro"), page("pt/b.md", schema.LangPT, "Introdução")),
			"b-1=b-1"},
		{"chunks of one section are one section",
			join(page("en/a.md", schema.LangEN, "Intro", "Intro"), page("pt/a.md", schema.LangPT, "Introdução")),
			"a-1=a-1"},
		{"a section the translation lacks is skipped",
			[]Passage{
				{Doc: "en/a.md", Lang: schema.LangEN, Section: []string{"Install"}, Text: "run apt-get install otelcol to install the collector"},
				{Doc: "en/a.md", Lang: schema.LangEN, Section: []string{"Upgrade"}, Text: "a newer section, never translated, about upgrades and versions 0.110"},
				{Doc: "en/a.md", Lang: schema.LangEN, Section: []string{"Remove"}, Text: "run apt-get remove otelcol to remove it"},
				{Doc: "pt/a.md", Lang: schema.LangPT, Section: []string{"Instalar"}, Text: "execute apt-get install otelcol para instalar o coletor"},
				{Doc: "pt/a.md", Lang: schema.LangPT, Section: []string{"Remover"}, Text: "execute apt-get remove otelcol para removê-lo"},
			},
			"run=execute run=execute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Align(tt.ps)
			if s := pairs(got); s != tt.want {
				t.Errorf("got %q, want %q", s, tt.want)
			}
			for _, p := range got {
				if p.A.Lang != schema.LangEN || p.B.Lang != schema.LangPT {
					t.Errorf("got a pair %s→%s, want en→pt", p.A.Lang, p.B.Lang)
				}
			}
		})
	}
	t.Run("the skipped section is the one the translation lacks", func(t *testing.T) {
		got := Align(tests[3].ps)
		if len(got) != 2 || got[0].A.Path[0] != "Install" || got[1].A.Path[0] != "Remove" {
			t.Errorf("got %v, want Install and Remove paired", got)
		}
	})
	t.Run("two pages of one language for one key: neither is paired", func(t *testing.T) {
		ps := join(page("en/a.md", schema.LangEN, "Intro"), page("pt/a.md", schema.LangPT, "Intro"), page("pt-BR/a.md", schema.LangPT, "Intro"))
		if got := Align(ps); len(got) != 0 {
			t.Errorf("got %q, want no pair", pairs(got))
		}
	})
}
