package lexical

import (
	"strings"
	"unicode"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/portuguese"

	"github.com/ocean-safety/ingest/schema"
)

// Stemmer reduces words to their Snowball stems in one language, the way
// Lucene's English and Portuguese analyzers do under BM25: "validate" and
// "valid", "configurações" and "configuração" meet. It remembers every word
// it has stemmed (a corpus has far fewer distinct words than words), so it
// is not safe for concurrent use: one a goroutine.
type Stemmer struct {
	stem func(*snowballstem.Env) bool // nil: words are kept as they are
	env  *snowballstem.Env
	memo map[string]string
}

// NewStemmer returns the stemmer of lang; a language without one (or "")
// keeps words as they are.
func NewStemmer(lang schema.Lang) *Stemmer {
	s := &Stemmer{env: snowballstem.NewEnv(""), memo: map[string]string{}}
	switch lang {
	case schema.LangEN:
		s.stem = english.Stem
	case schema.LangPT:
		s.stem = portuguese.Stem
	}
	return s
}

// Terms returns the stems of text's words: the words of Words (stop words
// out), each stemmed before its accents are folded, since the Portuguese
// rules read them ("-ção", "-ões"), and folded after.
func (s *Stemmer) Terms(text string) []string {
	lower := splitLower(text)
	out := make([]string, 0, len(lower))
	for _, w := range lower {
		if t := s.stemOf(w); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// Stemmed is a word of a text beside its term.
type Stemmed struct {
	Word string // lower case, as written
	Term string
}

// Stemmed returns the words Terms stems, each beside its term: what learns
// a term's translation from the words it is written as.
func (s *Stemmer) Stemmed(text string) []Stemmed {
	var out []Stemmed
	for _, w := range splitLower(text) {
		if t := s.stemOf(w); t != "" {
			out = append(out, Stemmed{w, t})
		}
	}
	return out
}

// splitLower is text's words in lower case, accents kept.
func splitLower(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) })
}

// stemOf is a lower-case word's term, remembered.
func (s *Stemmer) stemOf(w string) string {
	t, ok := s.memo[w]
	if !ok {
		t = s.term(w)
		s.memo[w] = t
	}
	return t
}

// term is one lower-case word's stem, folded; "" for a stop word or a word
// that folds to nothing.
func (s *Stemmer) term(w string) string {
	f := Words(w)
	if len(f) != 1 { // a stop word, or a word folding splits (rare: "ǆ")
		if len(f) == 0 {
			return ""
		}
		return strings.Join(f, "")
	}
	if s.stem == nil || !isStemmable(f[0]) {
		return f[0]
	}
	s.env.SetCurrent(w)
	s.stem(s.env)
	return Fold(s.env.Current())
}

// isStemmable reports whether a folded word is one a stemmer should touch:
// numbers, versions and identifiers with digits ("v2", "http2") are names,
// and stemming them only merges what differs.
func isStemmable(w string) bool {
	for _, r := range w {
		if unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
