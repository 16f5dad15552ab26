package search

import (
	"context"
	"math"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestRelevance checks the BM25 relevance by hand. Two English chunks of
// one term each ("rip", "hat"): N = 2, avgdl = 1, idf of a term one chunk
// holds ln(1 + 1.5/1.5) = ln 2, of a term none holds ln(1 + 2.5/0.5) = ln 6.
// A chunk holding the question's only term scores ln 2 · 2.2/2.2 = ln 2, its
// question's best; each word the corpus lacks adds ln 6 to the best alone.
func TestRelevance(t *testing.T) {
	t.Parallel()
	ix := New(nil,
		chunk("a.md", schema.LangEN, schema.KindProse, "", "rip"),
		chunk("b.md", schema.LangEN, schema.KindProse, "", "hat"),
	)
	for _, tt := range []struct {
		name  string
		query string
		want  float64 // relevance of the top result
	}{
		{"every term held", "rip", 1},
		{"one term the corpus lacks", "rip jellyfish", math.Log(2) / (math.Log(2) + math.Log(6))},
		{"two terms held by two chunks", "rip hat", 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := ix.Search(context.Background(), tt.query, Options{Mode: ModeBM25, K: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || math.Abs(res[0].Relevance-tt.want) > 1e-9 {
				t.Fatalf("got %+v, want one result of relevance %.6f", res, tt.want)
			}
		})
	}
}

// TestHybridRelevanceWeighsTheLegsAsFusion: hybrid's relevance is the
// legs' mean weighed as fusion weighs them (BM25 1, the vector leg its
// weight), a leg that did not rank the chunk counting 0.
func TestHybridRelevanceWeighsTheLegsAsFusion(t *testing.T) {
	t.Parallel()
	entries := []entry{{lang: schema.LangEN}, {lang: schema.LangEN}}
	lex := []hit{{0, 0.5}}
	vec := []hit{{1, 0.6}, {0, 0.2}}
	for _, tt := range []struct {
		name      string
		vecWeight float64
		i         int
		want      float64
	}{
		{"both legs, weighed evenly", 1, 0, (0.5 + 0.2) / 2},
		{"vector leg only, weighed evenly", 1, 1, 0.6 / 2},
		{"both legs, the vector leg a quarter", 0.25, 0, (0.5 + 0.25*0.2) / 1.25},
		{"vector leg only, a quarter", 0.25, 1, 0.25 * 0.6 / 1.25},
		{"vector leg weighed 0: BM25's relevance", 0, 0, 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rel := relevance(ModeHybrid, entries, lex, vec, query{}.weight, tt.vecWeight)
			if got := rel(tt.i); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("entry %d: got %g, want %g", tt.i, got, tt.want)
			}
		})
	}
}
