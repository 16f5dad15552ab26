package search

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestBM25 checks scores computed by hand. A score is BM25's over the
// question's own best (relevance.go): Σ idf of its terms in the chunk's
// language. The corpus, in words after stop words are dropped:
//
//	a.md (en, prose):      rip current rip  (dl 3)
//	b.md (en, prose):      current swim     (dl 2)
//	c.md (pt, prose):      sun hat          (dl 2)
//	e.md (en, structured): rip              (dl 1)
//
// The statistics are per language: the English chunks', N = 3, avgdl = 2,
// df(rip) = df(current) = 2, so idf(rip) = idf(current) = ln(1 + 1.5/2.5)
// = ln 1.6 (c.md, Portuguese, counts in neither). With K(dl) = 1.2·(0.25 +
// 0.75·dl/avgdl) and the best 2·ln 1.6:
//
//	a: ln 1.6·(2·2.2/(2 + K(3)) + 2.2/(1 + K(3))) / (2·ln 1.6) = 1.0178340656500389
//	b: ln 1.6·2.2/(1 + K(2)) / (2·ln 1.6)                       = 0.5
//	e: ln 1.6·2.2/(1 + K(1)) / (2·ln 1.6)                       = 0.6285714285714287
//
// Filtered to prose, the statistics are those of a and b only: N = 2,
// avgdl = 2.5, idf(rip) = ln 2, idf(current) = ln 1.2:
//
//	a: 1.2231782350525162, b: 0.22681338999266004
func TestBM25(t *testing.T) {
	corpus := []schema.Chunk{
		chunk("a.md", schema.LangEN, schema.KindProse, "", "rip current rip"),
		chunk("b.md", schema.LangEN, schema.KindProse, "", "current swim"),
		chunk("c.md", schema.LangPT, schema.KindProse, "", "sun hat"),
		chunk("e.md", schema.LangEN, schema.KindStructured, "", "rip"),
	}
	all := map[string]float64{"a.md": 1.0178340656500389, "b.md": 0.5, "e.md": 0.6285714285714287}
	fields := schema.Chunk{DocPath: "d.md", Lang: schema.LangEN, Kind: schema.KindProse,
		SectionPath: []string{"Escape"}, ContextHeader: "Guide", Text: "Swim parallel."}
	tests := []struct {
		name   string
		chunks []schema.Chunk
		query  string
		filter Filter
		want   map[string]float64 // doc → score; absent docs must not be ranked
	}{
		{"all chunks", corpus, "rip current", Filter{}, all},
		{"the other language's chunks are not in the statistics", slices.Delete(slices.Clone(corpus), 2, 3), "rip current", Filter{}, all},
		{"repeated and stop words count once", corpus, "the rip, the current and the rip", Filter{}, all},
		{"statistics of the filtered set", corpus, "rip current", Filter{Kind: schema.KindProse}, map[string]float64{"a.md": 1.2231782350525162, "b.md": 0.22681338999266004}},
		{"no shared term", corpus, "jellyfish", Filter{}, map[string]float64{}},
		// d.md alone: N = 1, df = 1, idf = ln(4/3); dl = avgdl = 3 (swim parallel, and escape guide at
		// contextWeight 0.5 each), so K = 1.2: a term of the text adds ln(4/3)·2.2/2.2, one of the
		// context ln(4/3)·0.5·2.2/1.7, and the best is ln(4/3) a term.
		{"section path is indexed as context", []schema.Chunk{fields}, "escape", Filter{}, map[string]float64{"d.md": 1.1 / 1.7}},
		{"header is indexed as context", []schema.Chunk{fields}, "guide parallel", Filter{}, map[string]float64{"d.md": (1 + 1.1/1.7) / 2}},
		{"inflections meet through the stem", []schema.Chunk{fields}, "swimming in parallels", Filter{}, map[string]float64{"d.md": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := New(nil, tt.chunks...)
			res, err := ix.Search(context.Background(), tt.query, Options{Mode: ModeBM25, K: 10, Filter: tt.filter})
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != len(tt.want) {
				t.Fatalf("got %d results %v, want %d", len(res), docs(res), len(tt.want))
			}
			for i, r := range res {
				want, ok := tt.want[r.DocPath]
				if !ok || math.Abs(r.Score-want) > 1e-9 {
					t.Errorf("got %s score %.17g, want %.17g (ranked: %v)", r.DocPath, r.Score, want, ok)
				}
				if i > 0 && res[i-1].Score < r.Score {
					t.Errorf("got %s (%g) below %s (%g), want best first", res[i-1].DocPath, res[i-1].Score, r.DocPath, r.Score)
				}
			}
		})
	}
}

func TestFuse(t *testing.T) {
	h := func(is ...int) []hit {
		out := make([]hit, len(is))
		for j, i := range is {
			out[j] = hit{i: i, score: float64(100 - j)} // leg scores are ignored: only ranks count
		}
		return out
	}
	tests := []struct {
		name     string
		lex, vec []hit
		w        float64 // the vector leg's weight
		want     []hit
	}{
		{"both legs", h(0, 1, 2), h(2, 0, 3), 1, []hit{
			{0, 1.0/61 + 1.0/62}, // first and second
			{2, 1.0/63 + 1.0/61}, // third and first
			{1, 1.0 / 62},
			{3, 1.0 / 63},
		}},
		{"the vector leg weighed less", h(0, 1, 2), h(2, 0, 3), 0.25, []hit{
			{0, 1.0/61 + 0.25/62},
			{2, 1.0/63 + 0.25/61},
			{1, 1.0 / 62},
			{3, 0.25 / 63},
		}},
		{"a vector-only hit still ranks, below", h(4), h(9), 0.25, []hit{{4, 1.0 / 61}, {9, 0.25 / 61}}},
		{"one leg empty", h(5, 4), nil, 1, []hit{{5, 1.0 / 61}, {4, 1.0 / 62}}},
		{"tie goes to the earlier chunk", h(7), h(3), 1, []hit{{3, 1.0 / 61}, {7, 1.0 / 61}}},
		{"nothing", nil, nil, 1, []hit{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fuse(tt.lex, tt.vec, tt.w)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for j := range got {
				if got[j].i != tt.want[j].i || math.Abs(got[j].score-tt.want[j].score) > 1e-12 {
					t.Errorf("got %v at rank %d, want %v", got[j], j+1, tt.want[j])
				}
			}
		})
	}
}

// TestVectorWeight: the built-in embedder's ranking counts
// builtinVectorWeight in fusion, any other embedder's counts in full.
func TestVectorWeight(t *testing.T) {
	tests := []struct {
		name string
		emb  Embedder
		want float64
	}{
		{"built-in", lexical.NewBuiltin(testDims), builtinVectorWeight},
		{"a model", fakeEmbedder{}, 1},
		{"none", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := vectorWeight(tt.emb); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	// In a search: b.md is the vector leg's first and BM25's second, a.md
	// the reverse; at weight 1 they tie and the earlier chunk, b.md, wins.
	ix := New(fakeEmbedder{vec: []float32{1, 0}},
		schema.Chunk{DocPath: "b.md", Lang: schema.LangEN, Text: "rip current swim", Embedding: []float32{1, 0}},
		schema.Chunk{DocPath: "a.md", Lang: schema.LangEN, Text: "rip current escape", Embedding: []float32{1, 1}},
	)
	for _, tt := range []struct {
		w     float64
		first string
	}{{1, "b.md"}, {builtinVectorWeight, "a.md"}} {
		ix.vecWeight = tt.w
		res, err := ix.Search(context.Background(), "rip current escape", Options{Mode: ModeHybrid, NoBeachDetection: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := docs(res); len(got) != 2 || got[0] != tt.first {
			t.Errorf("vector weight %v: got %v, want %s first", tt.w, got, tt.first)
		}
	}
}

// fakeEmbedder embeds every text as vec.
type fakeEmbedder struct{ vec []float32 }

func (f fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = f.vec
	}
	return out, nil
}

// TestCosine: the vector leg ranks by cosine over the stored vectors, whatever their length.
func TestCosine(t *testing.T) {
	ix := New(nil,
		schema.Chunk{DocPath: "x.md", Embedding: []float32{2, 0}},
		schema.Chunk{DocPath: "y.md", Embedding: []float32{1, 1}},
		schema.Chunk{DocPath: "z.md", Embedding: []float32{-1, 0}},
		schema.Chunk{DocPath: "zero.md", Embedding: []float32{0, 0}},
	)
	got := ix.cosine(map[schema.Lang][]float32{"": {3, 0}}, query{}, []int{0, 1, 2, 3})
	want := []hit{{0, 1}, {1, 1 / math.Sqrt2}} // z is opposite and zero has no direction: not ranked
	if len(got) != len(want) || got[0].i != 0 || got[1].i != 1 || math.Abs(got[0].score-1) > 1e-9 || math.Abs(got[1].score-want[1].score) > 1e-9 {
		t.Errorf("got %v, want %v", got, want)
	}
	res := ix.results(got, nil, got, relevance(ModeVector, ix.entries, nil, got, query{}.weight, ix.vecWeight))
	if !slices.Equal(docs(res), []string{"x.md", "y.md"}) || res[1].Relevance != res[1].Score {
		t.Errorf("got results %v, want x.md, y.md, relevance the cosine", res)
	}
}
