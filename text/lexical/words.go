package lexical

import (
	"strings"
	"unicode"
)

// stopWords are dropped from the lexical features: function words of English
// and Portuguese that every chunk shares. maxStopWord is the longest in
// bytes: a longer word needs no look-up.
var stopWords, maxStopWord = func() (map[string]bool, int) {
	m, longest := map[string]bool{}, 0
	for _, w := range strings.Fields(`a an the and or of to in on at for from by with is are was were be been
		it its this that these those as if then than so not no do does you your can will may should
		o os as um uma uns umas e ou de do da dos das em no na nos nas por para com sem que se ao aos
		e é sao são ser foi eram esta este isso essa esse pelo pela pelos pelas mais muito seu sua`) {
		m[w] = true
		longest = max(longest, len(w))
	}
	return m, longest
}()

// Fold lower-cases text and removes its accents ("Água" → "agua"): two
// spellings of a name compare equal.
func Fold(text string) string {
	if folded, ok := foldFast(text); ok {
		return folded
	}
	return foldSlow(text)
}

// Tokens returns the folded words of text, stop words kept: for comparing
// runs of words.
func Tokens(text string) []string {
	return strings.FieldsFunc(Fold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Words returns the lower-case, accent-folded words of text, stop words
// dropped: the lexical features of the built-in embedder (and of BM25).
func Words(text string) []string {
	fields := Tokens(text)
	out := fields[:0]
	for _, w := range fields {
		if len(w) > maxStopWord || !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}
