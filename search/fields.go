package search

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
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

// fields counts a chunk's BM25 terms, stemmed in its language: each term of
// its text once, each of its context contextWeight, and the length likewise.
// Both are read from what the chunk's search_text holds (searchFields), the
// text a consumer's lexical leg indexes. The canonical forms of quantities
// (lexical.EmbedInput's suffix) stay out: their digits and unit letters
// ("1.52 m") are noise to exact term matching.
func fields(s *lexical.Stemmer, c schema.Chunk) (tf map[string]float64, length float64) {
	tf = map[string]float64{}
	context, text := searchFields(c)
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

// searchFields splits a chunk's search text into its context (section path
// and header) and its text as a reader sees it (link targets, heading
// hashes, markers out: lexical.Clean). It reads the snapshot's search_text,
// the bytes a consumer indexes; a snapshot before schema 5 has none, and
// its chunks are cleaned here as the pipeline cleans them now.
func searchFields(c schema.Chunk) (context, text string) {
	context = lexical.SearchContext(c)
	st := c.SearchText
	if st == "" {
		st = lexical.SearchText(c)
	}
	if text, ok := strings.CutPrefix(st, context+"\n\n"); ok {
		return context, text
	}
	context, text, _ = strings.Cut(st, "\n\n") // written with another context than this build's: split where it was joined
	return context, text
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
