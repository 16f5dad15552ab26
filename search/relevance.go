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
//     (Σ idf, the snapshot's statistics). A question whose words the corpus
//     lacks or scatters stays low: a word no chunk holds adds its full idf
//     to the best score and nothing to any chunk's.
//   - vector: the cosine similarity, already on one scale per embedder.
//   - hybrid: the mean of the two, each 0 where its leg did not rank the
//     chunk.
//
// Both are measured, and a floor chosen, by Evaluate (AUROC, flag rates).

// selfScores is, per language, the BM25 score of a chunk of average length
// holding each of the question's terms in that language once: Σ idf, since
// tf·(k1+1)/(tf+k1) is 1 at tf 1 and average length.
func selfScores(q query, idf func(string) float64) map[schema.Lang]float64 {
	self := make(map[schema.Lang]float64, len(q))
	for lang, terms := range q {
		for _, t := range terms {
			self[lang] += idf(t)
		}
	}
	return self
}

// relevance returns the relevance of entry i in mode m, given the legs'
// rankings and the BM25 self scores.
func relevance(m Mode, entries []entry, lex, vec []hit, self map[schema.Lang]float64) func(i int) float64 {
	lexRel := map[int]float64{}
	for _, h := range lex {
		if s := self[entries[h.i].lang]; s > 0 {
			lexRel[h.i] = h.score / s
		}
	}
	cos := map[int]float64{}
	for _, h := range vec {
		cos[h.i] = h.score
	}
	return func(i int) float64 {
		switch m {
		case ModeBM25:
			return lexRel[i]
		case ModeVector:
			return cos[i]
		}
		return (lexRel[i] + cos[i]) / 2
	}
}
