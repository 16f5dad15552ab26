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
	lower := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) })
	out := make([]string, 0, len(lower))
	for _, w := range lower {
		if t, ok := s.memo[w]; ok {
			if t != "" {
				out = append(out, t)
			}
			continue
		}
		t := s.term(w)
		s.memo[w] = t
		if t != "" {
			out = append(out, t)
		}
	}
	return out
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
