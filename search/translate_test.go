package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexicon"
)

// tinyLexicon translates what the tests ask, as a dictionary would.
func tinyLexicon() *lexicon.Lexicon {
	l := lexicon.New()
	add := func(from, to schema.Lang, term string, ts ...lexicon.Translation) {
		for _, t := range ts {
			l.Add(from, to, term, t)
		}
	}
	add(schema.LangPT, schema.LangEN, "port", lexicon.Translation{Term: "port", Word: "port", Weight: 1}, lexicon.Translation{Term: "door", Word: "door", Weight: 0.5})
	add(schema.LangPT, schema.LangEN, "troc", lexicon.Translation{Term: "chang", Word: "change", Weight: 0.8})
	add(schema.LangPT, schema.LangEN, "qual", lexicon.Translation{Term: "which", Word: "which", Weight: 1})
	add(schema.LangEN, schema.LangPT, "port", lexicon.Translation{Term: "port", Word: "porta", Weight: 1})
	add(schema.LangEN, schema.LangPT, "chang", lexicon.Translation{Term: "troc", Word: "trocar", Weight: 1})
	add(schema.LangPT, schema.LangEN, "fech", lexicon.Translation{Term: "close", Word: "close", Weight: 1})
	add(schema.LangPT, schema.LangEN, "janel", lexicon.Translation{Term: "window", Word: "window", Weight: 1})
	return l
}

// TestQueryLegs: a question's words as each language's leg reads them.
func TestQueryLegs(t *testing.T) {
	ix := New(nil,
		chunk("en.md", schema.LangEN, schema.KindProse, "", "ports"),
		chunk("pt.md", schema.LangPT, schema.KindProse, "", "portas"))
	ix.Translate(Translation{Dictionary: tinyLexicon()})
	tests := []struct {
		name     string
		question string
		from     schema.Lang
		want     map[schema.Lang][]qterm
	}{
		{"a pt question: its words in pt, translated in en (the best 1, the others relative to it)",
			"Como troco a porta?", schema.LangPT, map[schema.Lang][]qterm{
				schema.LangPT: {{{"troc", 1}}, {{"port", 1}}},
				schema.LangEN: {{{"troco", 1}, {"chang", 1}}, {{"porta", 1}, {"port", 1}, {"door", 0.5}}},
			}},
		{"an en question: translated into pt only",
			"How do I change the port?", schema.LangEN, map[schema.Lang][]qterm{
				schema.LangEN: {{{"chang", 1}}, {{"port", 1}}},
				schema.LangPT: {{{"chang", 1}, {"troc", 1}}, {{"port", 1}}},
			}},
		{"a function word of the question's language is no term of it, in any leg",
			"Qual porta?", schema.LangPT, map[schema.Lang][]qterm{
				schema.LangPT: {{{"port", 1}}},
				schema.LangEN: {{{"porta", 1}, {"port", 1}, {"door", 0.5}}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := ix.query(tt.question)
			if q.from != tt.from {
				t.Errorf("got language %q, want %q", q.from, tt.from)
			}
			for lang, want := range tt.want {
				if got := q.legs[lang]; !slices.EqualFunc(got, want, func(a, b qterm) bool { return slices.Equal(a, b) }) {
					t.Errorf("%s leg: got %v, want %v", lang, got, want)
				}
			}
		})
	}
}

// TestCrossLanguage: a Portuguese question reaches the English chunk that
// alone answers it through translation, in both legs; where the answer is
// in the question's language too, that chunk ranks first (translatedWeight).
func TestCrossLanguage(t *testing.T) {
	answerEN := chunk("en/demo.md", schema.LangEN, schema.KindProse, "", "To close the window, press Escape.")
	other := chunk("en/other.md", schema.LangEN, schema.KindProse, "", "The collector exports telemetry.")
	answerPT := chunk("pt/demo.md", schema.LangPT, schema.KindProse, "", "Fecho a janela com Escape.")
	noise := chunk("pt/noise.md", schema.LangPT, schema.KindProse, "", "O coletor exporta telemetria.")
	const question = "Como fecho a janela?"
	for _, mode := range []Mode{ModeBM25, ModeVector, ModeHybrid} {
		t.Run(string(mode)+", answered only in en", func(t *testing.T) {
			ix := embedded(t, answerEN, other, noise)
			before, _ := ix.Search(context.Background(), question, Options{Mode: mode, K: 3})
			ix.Translate(Translation{Dictionary: tinyLexicon()})
			res, err := ix.Search(context.Background(), question, Options{Mode: mode, K: 3})
			if err != nil || len(res) == 0 || res[0].DocPath != "en/demo.md" {
				t.Fatalf("got %v, %v; want en/demo.md first", docs(res), err)
			}
			if len(before) > 0 && before[0].DocPath == "en/demo.md" && before[0].Relevance >= res[0].Relevance/2 {
				t.Errorf("got relevance %g without translation, %g with: want translation to be what finds it", before[0].Relevance, res[0].Relevance)
			}
		})
		t.Run(string(mode)+", answered in both", func(t *testing.T) {
			ix := embedded(t, answerEN, other, answerPT, noise)
			ix.Translate(Translation{Dictionary: tinyLexicon()})
			res, err := ix.Search(context.Background(), question, Options{Mode: mode, K: 3})
			if err != nil || len(res) < 2 || res[0].DocPath != "pt/demo.md" || res[1].DocPath != "en/demo.md" {
				t.Fatalf("got %v, %v; want pt/demo.md, then en/demo.md", docs(res), err)
			}
			if res[1].Relevance < res[1].Score {
				t.Errorf("got relevance %g below score %g: the relevance of a translated match is not weighted down", res[1].Relevance, res[1].Score)
			}
		})
	}
}

// TestTranslateLearns: an index learns translations from its own translated
// pages (Translation.Learn), and a question crosses through them.
func TestTranslateLearns(t *testing.T) {
	var chunks []schema.Chunk
	for _, s := range []struct{ en, pt string }{
		{"Sampling reduces the spans you keep.", "A amostragem reduz os trechos que você guarda."},
		{"Head sampling decides early.", "A amostragem pela cabeça decide cedo."},
		{"Tail sampling sees whole traces.", "A amostragem pela cauda vê rastros inteiros."},
		{"The collector receives spans.", "O coletor recebe trechos."},
	} {
		chunks = append(chunks,
			schema.Chunk{DocPath: "en/a.md", Lang: schema.LangEN, SectionPath: []string{s.en}, Text: s.en},
			schema.Chunk{DocPath: "pt/a.md", Lang: schema.LangPT, SectionPath: []string{s.pt}, Text: s.pt})
	}
	slices.SortStableFunc(chunks, func(a, b schema.Chunk) int { return strings.Compare(a.DocPath, b.DocPath) })
	ix := New(nil, chunks...)
	if n := ix.Translate(Translation{Learn: true}); n == 0 {
		t.Fatal("got no translations learned, want some")
	}
	q := ix.query("O que a amostragem faz?")
	var got []string
	for _, qt := range q.legs[schema.LangEN] {
		for _, a := range qt[1:] {
			got = append(got, a.term)
		}
	}
	if !slices.Contains(got, "sampl") {
		t.Errorf("got en translations %v, want sampl (amostragem) among them", got)
	}
}

// TestStemBackoff: a term nothing translates is looked up again cut by a
// rune, then two, never below minBackoffRunes; a term that translates as it
// is keeps its own translations.
func TestStemBackoff(t *testing.T) {
	l := lexicon.New()
	l.Add(schema.LangPT, schema.LangEN, "renom", lexicon.Translation{Term: "renam", Word: "rename", Weight: 1})
	l.Add(schema.LangPT, schema.LangEN, "renome", lexicon.Translation{Term: "renown", Word: "renown", Weight: 1})
	l.Add(schema.LangPT, schema.LangEN, "export", lexicon.Translation{Term: "export", Word: "export", Weight: 1})
	l.Add(schema.LangPT, schema.LangEN, "port", lexicon.Translation{Term: "port", Word: "port", Weight: 1})
	l.Add(schema.LangPT, schema.LangEN, "exec", lexicon.Translation{Term: "run", Word: "run", Weight: 1})
	ix := New(nil)
	ix.Translate(Translation{Dictionary: l})
	for _, tt := range []struct {
		name, term string
		want       []string
	}{
		{"translated as it is: never cut", "renom", []string{"renam"}},
		{"cut by one rune", "renomei", []string{"renown"}},
		{"cut by two runes", "exportav", []string{"export"}},
		{"three runes off: too far", "exportava", nil},
		{"a cut below five runes: left alone", "porta", nil},
		{"short and untranslated: left alone", "execu", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tr := range ix.lookup(schema.LangPT, schema.LangEN, tt.term) {
				got = append(got, tr.Term)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("lookup(%q): got %v, want %v", tt.term, got, tt.want)
			}
		})
	}
}

// TestReach: a chunk in a language the question is not in counts
// translatedWeight only when the question's own language has a chunk whose
// BM25 relevance reaches the floor (reaches); otherwise every language
// counts in full.
func TestReach(t *testing.T) {
	entries := []entry{{lang: schema.LangPT}, {lang: schema.LangEN}, {lang: schema.LangPT}}
	for _, tt := range []struct {
		name       string
		from       schema.Lang
		translated bool
		rel        []hit // BM25 relevances, unweighted
		floor      float64
		reach      bool
		en         float64 // the weight of an en chunk for the question
	}{
		{"own language above the floor: the other weighed down", schema.LangPT, true,
			[]hit{{1, 0.9}, {0, 0.7}}, 0.63, true, translatedWeight},
		{"own language at the floor: reached", schema.LangPT, true,
			[]hit{{0, 0.63}}, 0.63, true, translatedWeight},
		{"own language below the floor: the other in full", schema.LangPT, true,
			[]hit{{1, 0.9}, {0, 0.62}, {2, 0.5}}, 0.63, false, 1},
		{"own language not ranked at all: the other in full", schema.LangPT, true,
			[]hit{{1, 0.9}}, 0.63, false, 1},
		{"the other language above the floor reaches nothing for the question's", schema.LangPT, true,
			[]hit{{1, 1}}, 0, false, 1},
		{"no floor: any chunk of its own language ranked", schema.LangPT, true,
			[]hit{{2, 0.01}}, 0, true, translatedWeight},
		{"reached but not translated: in full", schema.LangPT, false,
			[]hit{{0, 0.9}}, 0.63, true, 1},
		{"the question's own language in full", schema.LangEN, true,
			[]hit{{1, 0.9}}, 0.63, true, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reach := reaches(tt.from, entries, tt.rel, tt.floor)
			if reach != tt.reach {
				t.Fatalf("reaches: got %v, want %v", reach, tt.reach)
			}
			q := query{from: tt.from, translated: tt.translated, reach: reach}
			if got := q.weight(schema.LangEN); got != tt.en {
				t.Errorf("weight of en: got %g, want %g", got, tt.en)
			}
			if got := q.weight(tt.from); got != 1 {
				t.Errorf("weight of %s, the question's: got %g, want 1", tt.from, got)
			}
		})
	}
}

// TestReachRanks: a Portuguese question whose own language's best chunk
// stays below the BM25 floor ranks the English chunk that answers it at
// full weight, in every mode; with the floor below that chunk, the English
// one counts translatedWeight.
func TestReachRanks(t *testing.T) {
	answerEN := chunk("en/demo.md", schema.LangEN, schema.KindProse, "", "To close the window, press Escape.")
	weakPT := chunk("pt/weak.md", schema.LangPT, schema.KindProse, "", "A janela do coletor mostra a telemetria.")
	noise := chunk("pt/noise.md", schema.LangPT, schema.KindProse, "", "O coletor exporta telemetria.")
	const question = "Como fecho a janela?"
	ix := embedded(t, answerEN, weakPT, noise)
	ix.Translate(Translation{Dictionary: tinyLexicon()})
	pt, err := ix.Search(context.Background(), question, Options{Mode: ModeBM25, K: 3, Filter: Filter{Lang: schema.LangPT}})
	if err != nil || len(pt) == 0 || pt[0].DocPath != "pt/weak.md" || pt[0].Relevance >= 1 {
		t.Fatalf("pt alone: got %v (%+v), %v; want pt/weak.md first, below relevance 1", docs(pt), pt, err)
	}
	for _, mode := range Modes {
		for _, tt := range []struct {
			name   string
			floor  float64
			weight float64
		}{
			{"own language below the floor", pt[0].Relevance + 0.01, 1},
			{"own language at the floor", pt[0].Relevance, translatedWeight},
		} {
			t.Run(string(mode)+", "+tt.name, func(t *testing.T) {
				ix.floors = map[Mode]float64{ModeBM25: tt.floor}
				res, err := ix.Search(context.Background(), question, Options{Mode: mode, K: 3})
				if err != nil {
					t.Fatal(err)
				}
				i := slices.IndexFunc(res, func(r Result) bool { return r.DocPath == "en/demo.md" })
				if i < 0 {
					t.Fatalf("got %v, want en/demo.md among them", docs(res))
				}
				if mode != ModeHybrid && math.Abs(res[i].Score-tt.weight*res[i].Relevance) > 1e-12 {
					t.Errorf("en/demo.md: got score %g for relevance %g, want weight %g", res[i].Score, res[i].Relevance, tt.weight)
				}
				if tt.weight == 1 && i != 0 {
					t.Errorf("got %v, want en/demo.md first", docs(res))
				}
			})
		}
	}
}
