package numeral

import (
	"unicode"
	"unicode/utf8"
)

// wordKind is the part a number word plays in a number.
type wordKind uint8

const (
	wOnes     wordKind = iota + 1 // 0–9
	wTeens                        // 10–19
	wTens                         // 20, 30 … 90
	wHundred                      // English "hundred": multiplies what precedes
	wHundreds                     // Portuguese "cem", "cento", "duzentos" … : adds
	wThousand                     // "thousand", "mil": multiplies what precedes
	wHalf                         // "half", "meio", "meia": ½ alone
	wDenom                        // "quarter(s)", "third(s)", "terço(s)", "quarto(s)"
	wAnd                          // "and", "e": joins parts of one number
	wPoint                        // "point", "vírgula": the decimal separator
	wArticle                      // English "a", "an": one, before "hundred", "quarter" …
)

type numWord struct {
	kind  wordKind
	value float64 // the number; for wDenom, the denominator
}

func numWords(kind wordKind, first float64, step float64, words ...string) map[string]numWord {
	m := make(map[string]numWord, len(words))
	for i, w := range words {
		m[w] = numWord{kind, first + float64(i)*step}
	}
	return m
}

func mergeWords(ms ...map[string]numWord) map[string]numWord {
	out := map[string]numWord{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// englishWords and portugueseWords are the number words of each language.
// A text is read with its own language's words only: "um" is a filler in
// English and "a" a preposition in Portuguese.
var (
	englishWords = mergeWords(
		numWords(wOnes, 0, 1, "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
		numWords(wTeens, 10, 1, "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
			"sixteen", "seventeen", "eighteen", "nineteen"),
		numWords(wTens, 20, 10, "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"),
		map[string]numWord{
			"hundred": {wHundred, 100}, "thousand": {wThousand, 1000},
			"half": {wHalf, 2}, "halves": {wDenom, 2}, "third": {wDenom, 3}, "thirds": {wDenom, 3},
			"quarter": {wDenom, 4}, "quarters": {wDenom, 4},
			"and": {wAnd, 0}, "point": {wPoint, 0}, "a": {wArticle, 1}, "an": {wArticle, 1},
		},
	)
	portugueseWords = mergeWords(
		numWords(wOnes, 0, 1, "zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"),
		numWords(wOnes, 1, 1, "uma", "duas", "tres"),
		numWords(wTeens, 10, 1, "dez", "onze", "doze", "treze", "catorze", "quinze",
			"dezesseis", "dezessete", "dezoito", "dezenove"),
		map[string]numWord{"quatorze": {wTeens, 14}, "dezasseis": {wTeens, 16}, "dezassete": {wTeens, 17}, "dezanove": {wTeens, 19}},
		numWords(wTens, 20, 10, "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"),
		map[string]numWord{"cinqüenta": {wTens, 50}, "tres": {wOnes, 3}},
		numWords(wHundreds, 100, 100, "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos",
			"seiscentos", "setecentos", "oitocentos", "novecentos"),
		numWords(wHundreds, 200, 100, "duzentas", "trezentas", "quatrocentas", "quinhentas",
			"seiscentas", "setecentas", "oitocentas", "novecentas"),
		map[string]numWord{
			"cem": {wHundreds, 100}, "mil": {wThousand, 1000},
			"meio": {wHalf, 2}, "meia": {wHalf, 2},
			"terço": {wDenom, 3}, "terços": {wDenom, 3}, "quarto": {wDenom, 4}, "quartos": {wDenom, 4},
			"e": {wAnd, 0}, "vírgula": {wPoint, 0}, "virgula": {wPoint, 0},
		},
	)
)

// lexicon is one language's number words with two filters: a bit for the
// first three letters (folded to a–z, other letters as one) of every word,
// and of every word that may open a number (not "and", "e"), so that most
// words are passed over without a map lookup.
type lexicon struct {
	words       map[string]numWord
	any, starts filter
}

var (
	english    = newLexicon(englishWords)
	portuguese = newLexicon(portugueseWords)
)

func newLexicon(words map[string]numWord) lexicon {
	l := lexicon{words: words}
	for w, nw := range words {
		g := trigram(w)
		l.any.set(g)
		if nw.kind != wAnd && nw.kind != wPoint {
			l.starts.set(g)
		}
	}
	return l
}

const trigramCount = 28 * 28 * 28 // a–z, another letter, the end of the word

type filter [trigramCount / 64]uint64

func (f *filter) set(g int)      { f[g/64] |= 1 << (g % 64) }
func (f *filter) has(g int) bool { return f[g/64]&(1<<(g%64)) != 0 }

// trigram is the filter index of a word's first three letters.
func trigram(w string) int {
	g, k := 0, 0
	for ; k < len(w) && k < 3 && asciiLetters[w[k]]; k++ {
		g = g*28 + int(w[k]|0x20-'a')
	}
	return finishTrigram(w, 0, len(w), g)
}

// finishTrigram completes the index g of the ASCII letters that open the
// word t[i:end]: another letter counts as 26, the end of the word as 27.
func finishTrigram(t string, i, end, g int) int {
	k := 0
	for k < 3 && i+k < end && asciiLetters[t[i+k]] {
		k++
	}
	for ; k < 3; k++ {
		c := 27
		if i+k < end {
			c = 26
		}
		g = g*28 + c
	}
	return g
}

// asciiLetters marks the bytes a–z and A–Z.
var asciiLetters = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

// maxWordLen bounds a number word in bytes ("quatrocentas", "dezessete").
const maxWordLen = 14

// lookupWord returns the number word spelled by t[i:end] in the parser's
// language; with first, only a word that may open a number.
func (p *Parser) lookupWord(i, end int, first bool) (numWord, bool) {
	if end-i > maxWordLen {
		return numWord{}, false
	}
	w := p.text[i:end]
	f := &p.lexicon.any
	if first {
		f = &p.lexicon.starts
	}
	if !f.has(trigram(w)) {
		return numWord{}, false
	}
	var buf [maxWordLen]byte
	for k := 0; k < len(w); k++ {
		buf[k] = ASCIILower(w[k])
	}
	nw, ok := p.lexicon.words[string(buf[:len(w)])]
	return nw, ok
}

// WordEnd is the end of the word starting at t[i]: letters of any script.
func WordEnd(t string, i int) int {
	for i < len(t) {
		c := t[i]
		if c < utf8.RuneSelf {
			if !asciiLetters[c] {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[i:])
		if !isLetter(r) {
			return i
		}
		i += size
	}
	return i
}

func isLetter(r rune) bool { return unicode.IsLetter(r) }

// ASCIILower lower-cases an ASCII letter and returns any other byte as it
// is.
func ASCIILower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
