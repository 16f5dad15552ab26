package search

import (
	"cmp"
	"math"
	"slices"

	"github.com/ocean-safety/ingest/schema"
)

// BM25 parameters: Robertson's usual values, which the corpus gives no
// reason to tune.
const (
	bm25K1 = 1.2  // term-frequency saturation
	bm25B  = 0.75 // document-length normalisation
)

// rrfK is the reciprocal rank fusion constant of Cormack et al. (2009): it
// damps the weight of the first few ranks so neither leg dominates.
const rrfK = 60

// hit is one ranked candidate: an entry index and its score in one leg.
type hit struct {
	i     int
	score float64
}

// bm25 ranks the candidates by BM25 over the query's distinct terms, each
// chunk matched by the terms of its own language (query). The statistics
// (N, document frequencies, mean length) are those of the candidates, not of
// the whole snapshot: a filtered search ranks exactly as if only the filtered
// chunks had been indexed, so a term that is rare in the chosen language or
// source weighs as rare. IDF is Robertson's with +1 inside the logarithm,
// ln(1 + (N−n+0.5)/(n+0.5)), never negative. Chunks that share no term with
// the query are not ranked.
func (ix *Index) bm25(q query, cands []int) (hits []hit, self map[schema.Lang]float64) {
	if len(cands) == 0 {
		return nil, nil
	}
	var total float64
	df := map[string]int{}
	for _, i := range cands {
		e := &ix.entries[i]
		total += e.length
		for _, term := range q[e.lang] {
			if e.tf[term] > 0 {
				df[term]++
			}
		}
	}
	if total == 0 {
		return nil, nil
	}
	n := float64(len(cands))
	avgdl := total / n
	idf := func(term string) float64 {
		d := float64(df[term])
		return math.Log(1 + (n-d+0.5)/(d+0.5))
	}
	var out []hit
	for _, i := range cands {
		e := &ix.entries[i]
		norm := bm25K1 * (1 - bm25B + bm25B*e.length/avgdl)
		var s float64
		for _, term := range q[e.lang] {
			if tf := e.tf[term]; tf > 0 {
				s += idf(term) * tf * (bm25K1 + 1) / (tf + norm)
			}
		}
		if s > 0 {
			out = append(out, hit{i, s})
		}
	}
	sortHits(out)
	return out, selfScores(q, idf)
}

// cosine ranks the candidates by cosine similarity of their embeddings with
// q. Candidates with no positive similarity share nothing with the question
// and are not ranked.
func (ix *Index) cosine(q []float32, cands []int) []hit {
	var qn float64
	for _, x := range q {
		qn += float64(x) * float64(x)
	}
	if qn == 0 {
		return nil
	}
	qn = math.Sqrt(qn)
	var out []hit
	for _, i := range cands {
		e := &ix.entries[i]
		if e.norm == 0 || len(e.vec) != len(q) {
			continue
		}
		var dot float64
		for j, x := range e.vec {
			dot += float64(x) * float64(q[j])
		}
		if s := dot / (qn * e.norm); s > 0 {
			out = append(out, hit{i, s})
		}
	}
	sortHits(out)
	return out
}

// fuse merges ranked lists by reciprocal rank fusion: an item scores
// Σ 1/(rrfK + rank) over the lists it appears in, ranks counted from 1.
func fuse(lists ...[]hit) []hit {
	score := map[int]float64{}
	var order []int
	for _, l := range lists {
		for r, h := range l {
			if _, ok := score[h.i]; !ok {
				order = append(order, h.i)
			}
			score[h.i] += 1 / float64(rrfK+r+1)
		}
	}
	out := make([]hit, len(order))
	for j, i := range order {
		out[j] = hit{i, score[i]}
	}
	sortHits(out)
	return out
}

// sortHits orders by score, best first; ties go to the earlier entry (the
// snapshot's (doc_path, chunk_order) order), so results are deterministic.
func sortHits(hs []hit) {
	slices.SortFunc(hs, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
}
