package lexical

import (
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestStemmerTerms(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		lang schema.Lang
		text string
		want []string
	}{
		{"en inflections meet", schema.LangEN, "Validate the validation; valid configurations", []string{"valid", "valid", "valid", "configur"}},
		{"en stop words out", schema.LangEN, "the collector is running", []string{"collector", "run"}},
		{"pt stemmed before folding", schema.LangPT, "configurações e configuração", []string{"configur", "configur"}},
		{"pt verbs", schema.LangPT, "gero alguns rastros; gere rastro", []string{"ger", "alguns", "rastr", "ger", "rastr"}},
		{"digits kept whole", schema.LangEN, "http2 v1.2 exporters", []string{"http2", "v1", "2", "export"}},
		{"no language: words", "", "Running exporters", []string{"running", "exporters"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewStemmer(tt.lang)
			for range 2 { // the second time from the memo
				if got := s.Terms(tt.text); !slices.Equal(got, tt.want) {
					t.Fatalf("got %q, want %q", got, tt.want)
				}
			}
		})
	}
}
