package lexicon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// learnPairs are twelve aligned sections: span/trecho in eight, trace/
// rastro in six of them (always beside span/trecho, so span and rastro are
// together six times too), collector/coletor in all, otlp in four on both
// sides, and a word of its own in each section, found once.
func learnPairs() []Pair {
	var out []Pair
	for i := range 12 {
		en, pt := []string{"collector"}, []string{"coletor"}
		switch {
		case i < 6:
			en, pt = append(en, "span", "trace"), append(pt, "trecho", "rastro")
		case i < 8:
			en, pt = append(en, "span"), append(pt, "trecho")
		default:
			en, pt = append(en, "otlp"), append(pt, "otlp")
		}
		en, pt = append(en, fmt.Sprintf("only%c", 'a'+i)), append(pt, fmt.Sprintf("apenas%c", 'a'+i))
		out = append(out, Pair{
			A: Section{Lang: schema.LangEN, Text: strings.Join(en, " ")},
			B: Section{Lang: schema.LangPT, Text: strings.Join(pt, " ")},
		})
	}
	return out
}

func stem(lang schema.Lang, w string) string { return lexical.NewStemmer(lang).Terms(w)[0] }

func TestLearn(t *testing.T) {
	l := Learn(learnPairs())
	en, pt := schema.LangEN, schema.LangPT
	tests := []struct {
		name     string
		from, to schema.Lang
		word     string
		want     []string // the words of the translations, best first
	}{
		{"a term and its translation", en, pt, "span", []string{"trecho"}},
		{"not the term always beside its translation (competitive linking)", en, pt, "trace", []string{"rastro"}},
		{"the other way", pt, en, "rastro", []string{"trace"}},
		{"a term in every section", en, pt, "collector", []string{"coletor"}},
		{"a name both languages write", en, pt, "otlp", []string{"otlp"}},
		{"a term found once is not learned", en, pt, "onlya", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tr := range l.Translate(tt.from, tt.to, stem(tt.from, tt.word)) {
				got = append(got, tr.Word)
				if tr.Weight <= 0 || tr.Weight > 1 {
					t.Errorf("%s: got weight %g, want (0, 1]", tr.Word, tr.Weight)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLearnDeterministic: the same pairs in another order give the same
// lexicon.
func TestLearnDeterministic(t *testing.T) {
	dump := func(l *Lexicon) string {
		var lines []string
		for d, terms := range l.m {
			for term, ts := range terms {
				lines = append(lines, fmt.Sprintf("%s>%s %s %v", d.from, d.to, term, ts))
			}
		}
		slices.Sort(lines)
		return strings.Join(lines, "\n")
	}
	ps := learnPairs()
	want := dump(Learn(ps))
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		r.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		if got := dump(Learn(ps)); got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	}
}

func TestGuess(t *testing.T) {
	tests := []struct {
		text string
		want schema.Lang
	}{
		{"How do I rename a metric in the collector?", schema.LangEN},
		{"Como renomeio uma métrica no Collector?", schema.LangPT},
		{"Qual é a porta padrão do OTLP?", schema.LangPT},
		{"Criança pode ficar sozinha no mar, mesmo no raso?", schema.LangPT},
		{"OTEL_PROPAGATORS none", ""},
		{"otelcol validate --config=customconfig.yaml", ""},
	}
	for _, tt := range tests {
		if got := Guess(tt.text); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestAdd: a term's translations sorted by weight, then term; one added
// again keeps its higher weight, whatever the order of adding.
func TestAdd(t *testing.T) {
	want := []Translation{{"trech", "trecho", 0.8}, {"interval", "intervalo", 0.3}, {"vao", "vao", 0.3}}
	for _, order := range [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}} {
		adds := []Translation{{"trech", "trecho", 0.5}, {"vao", "vao", 0.3}, {"trech", "trecho", 0.8}, {"interval", "intervalo", 0.3}}
		l := New()
		for _, i := range order {
			l.Add(schema.LangEN, schema.LangPT, "span", adds[i])
		}
		if got := l.Translate(schema.LangEN, schema.LangPT, "span"); !slices.Equal(got, want) {
			t.Errorf("order %v: got %v, want %v", order, got, want)
		}
	}
	var none *Lexicon
	if none.Translate(schema.LangEN, schema.LangPT, "span") != nil || none.Len() != 0 {
		t.Error("got translations from a nil lexicon, want none")
	}
}
