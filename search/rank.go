package search

import (
	"cmp"
	"math"
	"slices"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
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

// bm25 ranks the candidates by BM25 over the query's words, each chunk
// matched by the words read in its own language (query), a word scoring its
// best term (its own or a translation, weighted). The statistics
// (N, document frequencies, mean length) are those of the candidates, not of
// the whole snapshot: a filtered search ranks exactly as if only the filtered
// chunks had been indexed, so a term that is rare in the chosen language or
// source weighs as rare. They are taken per language, as if each language's
// chunks were an index of their own: a word of the smaller language is not
// rarer for being in fewer chunks of the whole, so a question's answer in
// one language and its neighbours in the other are scored on one scale.
// IDF is Robertson's with +1 inside the logarithm, ln(1 + (N−n+0.5)/(n+0.5)),
// never negative. Chunks that share no term with the query are not ranked.
// A hit's score is the chunk's relevance, not yet weighted by its language
// (weigh): reaches reads it.
func (ix *Index) bm25(q query, cands []int) []hit {
	st := map[schema.Lang]*legStats{}
	terms := q.terms()
	for _, i := range cands {
		e := &ix.entries[i]
		s := st[e.lang]
		if s == nil {
			s = &legStats{df: map[string]int{}}
			st[e.lang] = s
		}
		s.n++
		s.total += e.length
		for _, term := range terms[e.lang] {
			if e.tf[term] > 0 {
				s.df[term]++
			}
		}
	}
	self := selfScores(q, st)
	var out []hit
	for _, i := range cands {
		e := &ix.entries[i]
		s := st[e.lang]
		if s.total == 0 || self[e.lang] == 0 {
			continue
		}
		norm := bm25K1 * (1 - bm25B + bm25B*e.length*s.n/s.total)
		var score float64
		for _, qt := range q.legs[e.lang] {
			var best float64
			for _, a := range qt {
				if tf := e.tf[a.term]; tf > 0 {
					best = max(best, a.weight*s.idf(a.term)*tf*(bm25K1+1)/(tf+norm))
				}
			}
			score += best
		}
		if score > 0 {
			out = append(out, hit{i, score / self[e.lang]})
		}
	}
	sortHits(out)
	return out
}

// weigh multiplies each hit's score by the weight of its chunk's language
// (query.weight), in place, and ranks them again.
func (q query) weigh(entries []entry, hs []hit) []hit {
	for j := range hs {
		hs[j].score *= q.weight(entries[hs[j].i].lang)
	}
	sortHits(hs)
	return hs
}

// legStats are one language's BM25 statistics over the candidates.
type legStats struct {
	n, total float64 // chunks, and the sum of their lengths
	df       map[string]int
}

func (s *legStats) idf(term string) float64 {
	d := float64(s.df[term])
	return math.Log(1 + (s.n-d+0.5)/(d+0.5))
}

// terms lists the distinct terms of each leg.
func (q query) terms() map[schema.Lang][]string {
	out := make(map[schema.Lang][]string, len(q.legs))
	for lang, qts := range q.legs {
		seen := map[string]bool{}
		for _, qt := range qts {
			for _, a := range qt {
				if !seen[a.term] {
					seen[a.term] = true
					out[lang] = append(out[lang], a.term)
				}
			}
		}
	}
	return out
}

// cosine ranks the candidates by cosine similarity of their embeddings with
// the question's vector in their language, times the language's weight
// (query.weight). Candidates with no positive similarity share nothing with
// the question and are not ranked.
func (ix *Index) cosine(qs map[schema.Lang][]float32, q query, cands []int) []hit {
	norms := map[schema.Lang]float64{}
	for lang, v := range qs {
		var n2 float64
		for _, x := range v {
			n2 += float64(x) * float64(x)
		}
		norms[lang] = math.Sqrt(n2)
	}
	var out []hit
	for _, i := range cands {
		e := &ix.entries[i]
		v, qn := qs[e.lang], norms[e.lang]
		if e.norm == 0 || qn == 0 || len(e.vec) != len(v) {
			continue
		}
		var dot float64
		for j, x := range e.vec {
			dot += float64(x) * float64(v[j])
		}
		if s := dot / (qn * e.norm); s > 0 {
			out = append(out, hit{i, s * q.weight(e.lang)})
		}
	}
	sortHits(out)
	return out
}

// fuse merges BM25's ranking and the vector leg's by weighted reciprocal
// rank fusion: an item scores Σ w/(rrfK + rank) over the legs that ranked
// it, ranks counted from 1, BM25's w 1 and the vector leg's vecWeight.
func fuse(lex, vec []hit, vecWeight float64) []hit {
	score := map[int]float64{}
	var order []int
	add := func(l []hit, w float64) {
		for r, h := range l {
			if _, ok := score[h.i]; !ok {
				order = append(order, h.i)
			}
			score[h.i] += w / float64(rrfK+r+1)
		}
	}
	add(lex, 1)
	add(vec, vecWeight)
	out := make([]hit, len(order))
	for j, i := range order {
		out[j] = hit{i, score[i]}
	}
	sortHits(out)
	return out
}

// builtinVectorWeight is what the built-in embedder's ranking counts for in
// hybrid's fusion, against BM25's 1. Its hashed word and trigram features
// see what BM25 sees, less sharply: fused at 1 it pulled hybrid below BM25
// alone (otel dev half, answer@5 0.718 against 0.769), at 0 cross-lingual
// questions lost the translated words it embeds. Measured on that half,
// answer@5 / answer@1 / doc recall@5: 0.1 gave 0.795 / 0.513 / 0.897, 0.2
// to 0.3 gave 0.769 / 0.538 / 0.897, 0.4 0.744 / 0.538 / 0.872; 0.25 is
// the middle of the plateau that is at least BM25 alone everywhere. Swept
// again from 0.05 to 0.3 after schema 5 and stem backoff, it moved one
// question at a time, up and down, with no plateau to choose from (README,
// "Hybrid fusion"): it was left where it was.
const builtinVectorWeight = 0.25

// vectorWeight is the vector leg's weight in fusion for the question
// embedder emb: builtinVectorWeight for the built-in one, 1 (plain
// reciprocal rank fusion) for a semantic model, whose ranking holds what
// BM25's cannot (paraphrase, another language).
func vectorWeight(emb Embedder) float64 {
	if _, ok := emb.(*lexical.Builtin); ok {
		return builtinVectorWeight
	}
	return 1
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
