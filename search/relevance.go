package search

import (
	"github.com/ocean-safety/ingest/schema"
)

// RRF is rank-only and BM25 grows with the question's length, so neither
// score says whether anything answers: for questions the corpus cannot
// answer, hybrid's top score overlapped the answered ones'. A result's
// relevance puts each leg on a scale that means the same for every
// question of a snapshot:
//
//   - bm25: the chunk's score over the question's own best score, what a
//     chunk of average length holding each of its terms once would reach
//     (Σ idf, the statistics of the chunk's language). A question whose
//     words the corpus lacks or scatters stays low: a word no chunk holds
//     adds its full idf to the best score and nothing to any chunk's. It is
//     also what BM25 ranks by (times the weight of the chunk's language,
//     query.weight), so chunks of two languages are ranked on one scale.
//   - vector: the cosine similarity, already on one scale per embedder
//     (with the question's vector in the chunk's language).
//   - hybrid: the mean of the two weighed as hybrid's fusion weighs the
//     legs (Index.vecWeight: BM25 1, the vector leg vw), (bm25 + vw·cosine)
//     / (1 + vw), each 0 where its leg did not rank the chunk. A leg that
//     counts a quarter in the ranking counts a quarter in the relevance
//     too: at an even mean the built-in embedder's cosine, which separates
//     answerable from unanswerable questions far worse than BM25 (AUROC
//     0.72 against 0.95 on the otel set), decided half of it.
//
// Both are measured, and a floor chosen, by Evaluate (AUROC, flag rates).

// selfScores is, per language, the BM25 score of a chunk of average length
// holding once the best term of each of the question's words in that
// language: Σ idf, since tf·(k1+1)/(tf+k1) is 1 at tf 1 and average length.
// A word's best term is the best weighted of those the candidates hold, or,
// when they hold none, its own: a translated word is measured by what a
// chunk could hold of it, a missing word still counts in full.
func selfScores(q query, st map[schema.Lang]*legStats) map[schema.Lang]float64 {
	self := make(map[schema.Lang]float64, len(q.legs))
	for lang, qts := range q.legs {
		s := st[lang]
		if s == nil {
			continue
		}
		for _, qt := range qts {
			best := qt[0].weight * s.idf(qt[0].term)
			if len(qt) > 1 {
				best = 0
				for _, a := range qt {
					if s.df[a.term] > 0 {
						best = max(best, a.weight*s.idf(a.term))
					}
				}
				if best == 0 {
					best = qt[0].weight * s.idf(qt[0].term)
				}
			}
			self[lang] += best
		}
	}
	return self
}

// relevance returns the relevance of entry i in mode m, given the legs'
// rankings, whose scores are relevance times the weight of the chunk's
// language (query.weight), and the vector leg's weight in fusion.
func relevance(m Mode, entries []entry, lex, vec []hit, weight func(schema.Lang) float64, vecWeight float64) func(i int) float64 {
	lexRel := map[int]float64{}
	for _, h := range lex {
		lexRel[h.i] = h.score / weight(entries[h.i].lang)
	}
	cos := map[int]float64{}
	for _, h := range vec {
		cos[h.i] = h.score / weight(entries[h.i].lang)
	}
	return func(i int) float64 {
		switch m {
		case ModeBM25:
			return lexRel[i]
		case ModeVector:
			return cos[i]
		}
		return (lexRel[i] + vecWeight*cos[i]) / (1 + vecWeight)
	}
}
