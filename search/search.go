package search

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/schema"
)

// Mode is how a search ranks: one leg or the fusion of both.
type Mode string

// The search modes.
const (
	ModeHybrid Mode = "hybrid" // weighted reciprocal rank fusion of the BM25 and vector rankings (fuse)
	ModeBM25   Mode = "bm25"   // lexical: BM25 over section path, context header and text
	ModeVector Mode = "vector" // cosine similarity of the stored embeddings with the question's
)

// Modes lists every mode in the order reports show them.
var Modes = []Mode{ModeBM25, ModeVector, ModeHybrid}

// Defaults of the retrieval.mode and retrieval.top_k settings.
const (
	// DefaultMode is hybrid: BM25 catches exact names and numbers the
	// embedder blurs, the vector leg catches inflections and paraphrase, and
	// fusing their ranks needs no score calibration between them.
	DefaultMode = ModeHybrid
	// DefaultTopK is what a small reader model is given: five chunks of
	// about 700 characters fit a short prompt with room for the question.
	DefaultTopK = 5
)

// ParseMode returns the Mode named by s, or an error naming the accepted values.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown mode %q (want hybrid, bm25 or vector)", s)
}

// Options shape one search. The zero value is a hybrid top-5 search of
// everything, with beach detection.
type Options struct {
	Mode Mode // "" is DefaultMode
	K    int  // results wanted; 0 is DefaultTopK
	// Filter is applied before ranking.
	Filter Filter
	// NoBeachDetection keeps every beach's lore even when the question
	// names a beach. Detection is also off when Filter.BeachID is set.
	NoBeachDetection bool
}

// withDefaults fills the mode and k left zero.
func (opt Options) withDefaults() Options {
	if opt.Mode == "" {
		opt.Mode = DefaultMode
	}
	if opt.K == 0 {
		opt.K = DefaultTopK
	}
	return opt
}

// Result is one ranked chunk.
type Result struct {
	ChunkID     string      `json:"chunk_id"`
	DocPath     string      `json:"doc_path"`
	Order       int         `json:"chunk_order"`
	SectionPath []string    `json:"section_path"`
	Text        string      `json:"text"`
	Header      string      `json:"context_header"`
	Lang        schema.Lang `json:"lang"`
	Kind        schema.Kind `json:"kind"`
	BeachID     string      `json:"beach_id,omitempty"`
	SourceLabel string      `json:"source_label"`
	// Score is the mode's: the BM25 score over the question's best, or the
	// cosine similarity, times the weight of the chunk's language (a
	// language the question was translated into counts less, when the
	// question's own language reaches BM25's floor), or the
	// weighted reciprocal rank fusion of both (fuse).
	Score float64 `json:"score"`
	// Relevance is the mode's score on a scale that means the same for
	// every question of a snapshot (relevance.go), which a floor can cut.
	Relevance float64 `json:"relevance"`
	// BM25Rank and VectorRank are the chunk's 1-based rank in each leg that
	// ranked it (0: not ranked by that leg, or not run).
	BM25Rank   int `json:"bm25_rank,omitempty"`
	VectorRank int `json:"vector_rank,omitempty"`
}

// Search ranks the chunks for query and returns the best opt.K of them.
// Candidates are narrowed first (opt.Filter, then the beaches the question
// names, see Beaches), then ranked by the mode. A vector or hybrid search
// fails when the snapshot's embedder is not available.
func (ix *Index) Search(ctx context.Context, query string, opt Options) ([]Result, error) {
	opt = opt.withDefaults()
	if _, err := ParseMode(string(opt.Mode)); err != nil {
		return nil, err
	}
	if opt.K < 0 {
		return nil, fmt.Errorf("k %d: want at least 1", opt.K)
	}
	if err := opt.Filter.validate(); err != nil {
		return nil, err
	}
	var beaches []string
	if !opt.NoBeachDetection && opt.Filter.BeachID == "" {
		beaches = ix.Beaches(query)
	}
	cands := ix.candidates(opt.Filter, beaches)

	var lex, vec []hit
	q := ix.query(query)
	// How much the other language counts, in both legs, depends on BM25
	// (reaches), which so runs in vector mode too for a translated question.
	if opt.Mode != ModeVector || q.translated && q.from != "" {
		rel := ix.bm25(q, cands)
		q.reach = reaches(q.from, ix.entries, rel, ix.Floor(ModeBM25))
		if opt.Mode != ModeVector {
			lex = q.weigh(ix.entries, rel)
		}
	}
	if opt.Mode != ModeBM25 {
		vs, err := ix.embed(ctx, q)
		if err != nil {
			return nil, err
		}
		vec = ix.cosine(vs, q, cands)
	}
	var ranked []hit
	switch opt.Mode {
	case ModeBM25:
		ranked = lex
	case ModeVector:
		ranked = vec
	default:
		ranked = fuse(lex, vec, ix.vecWeight)
	}
	if len(ranked) > opt.K {
		ranked = ranked[:opt.K]
	}
	return ix.results(ranked, lex, vec, relevance(opt.Mode, ix.entries, lex, vec, q.weight, ix.vecWeight)), nil
}

func (ix *Index) results(ranked, lex, vec []hit, rel func(i int) float64) []Result {
	lexRank, vecRank := ranks(lex), ranks(vec)
	out := make([]Result, len(ranked))
	for j, h := range ranked {
		e := &ix.entries[h.i]
		out[j] = Result{
			ChunkID: e.chunkID, DocPath: e.docPath, Order: e.order, SectionPath: e.sectionPath,
			Text: e.text, Header: e.header, Lang: e.lang, Kind: e.kind, BeachID: e.beachID, SourceLabel: e.sourceLabel,
			Score: h.score, Relevance: rel(h.i), BM25Rank: lexRank[h.i], VectorRank: vecRank[h.i],
		}
	}
	return out
}

// ranks maps entry index to 1-based rank in hs.
func ranks(hs []hit) map[int]int {
	m := make(map[int]int, len(hs))
	for r, h := range hs {
		m[h.i] = r + 1
	}
	return m
}
