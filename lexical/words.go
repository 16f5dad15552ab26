package lexical

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// stopWords are dropped from the lexical features: function words of English
// and Portuguese that every chunk shares.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or of to in on at for from by with is are was were be been
		it its this that these those as if then than so not no do does you your can will may should
		o os as um uma uns umas e ou de do da dos das em no na nos nas por para com sem que se ao aos
		e é sao são ser foi eram esta este isso essa esse pelo pela pelos pelas mais muito seu sua`) {
		stopWords[w] = true
	}
}

// foldAccents returns a new accent-folding transformer: a transform.Chain
// keeps state, so each call needs its own.
func foldAccents() transform.Transformer {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}

// Fold lower-cases text and removes its accents ("Água" → "agua"): two
// spellings of a name compare equal.
func Fold(text string) string {
	folded, _, err := transform.String(foldAccents(), strings.ToLower(text))
	if err != nil {
		return strings.ToLower(text)
	}
	return folded
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
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}
