package search

import (
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/searchtext"
)

// contextWeight is what a term of a chunk's context (its section path and
// context header) counts for against a term of its text, as in BM25F: the
// context says where a chunk sits and lets a question reach a code block by
// the words around it, but every chunk of a section shares it, so at full
// weight it drowned the text that tells one chunk from its neighbours (the
// chunk describing a problem outranked the one with the command that fixes
// it). On the dev half of the otel golden set 0.2 to 1 measured within a
// question of each other (stemming was the gain); a half keeps the reach and
// lets the text decide between neighbours.
const contextWeight = 0.5

// fields counts the BM25 terms of a chunk's search_text (searchtext.Fields:
// what a consumer indexes), stemmed in its language: each of its cleaned text
// once, each of its context contextWeight, the length likewise. Quantities'
// canonical forms (EmbedInput's "1.52 m") are noise to term matching: out.
func fields(s *lexical.Stemmer, c schema.Chunk) (tf map[string]float64, length float64) {
	context, text := searchtext.Fields(c)
	tf = map[string]float64{}
	for _, t := range s.Terms(text) {
		tf[t]++
		length++
	}
	for _, t := range s.Terms(context) {
		tf[t] += contextWeight
		length += contextWeight
	}
	return tf, length
}

// stemmers holds the index's stemmer of each language its chunks are in,
// made on first use while loading (a Stemmer remembers what it stemmed, so
// it is not for concurrent searches: a query gets its own).
type stemmers map[schema.Lang]*lexical.Stemmer

func (ss stemmers) of(lang schema.Lang) *lexical.Stemmer {
	s := ss[lang]
	if s == nil {
		s = lexical.NewStemmer(lang)
		ss[lang] = s
	}
	return s
}
