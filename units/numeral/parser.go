package numeral

import "unicode/utf8"

// Parser reads the numerals of one text in its language: number words of
// that language only, and its convention for "1.000" and "1,500".
type Parser struct {
	text string
	pt   bool
	// lexicon holds the number words of the text's language.
	lexicon *lexicon
}

// NewParser returns a Parser of text; pt selects Brazilian Portuguese,
// English otherwise.
func NewParser(text string, pt bool) Parser {
	p := Parser{text: text, pt: pt, lexicon: &english}
	if p.pt {
		p.lexicon = &portuguese
	}
	return p
}

// Word reads the word starting at t[i] and returns where it ends, with
// ok=true and its numeral when it opens a number in words. It is the
// scanner's hottest path: one loop finds the word's end and its first
// three letters, and only a word whose trigram is a number word's reaches
// wordNumeral.
func (p *Parser) Word(i int) (n Numeral, end int, ok bool) {
	t := p.text
	g, j := 0, i
	for ; j < len(t) && asciiLetters[t[j]]; j++ {
		if j-i < 3 {
			g = g*28 + int(t[j]|0x20-'a')
		}
	}
	run := j - i
	if j < len(t) && t[j] >= utf8.RuneSelf {
		j = WordEnd(t, j) // "três", "ondulação"
	}
	if i > 0 && t[i-1] != ' ' && WordByteAt(t, i-1) {
		return Numeral{}, j, false // the middle of a token: "5k", "v1a"
	}
	for k := run; k < 3; k++ {
		if i+k < j {
			g = g*28 + 26 // a letter beyond a–z
		} else {
			g = g*28 + 27 // the end of the word
		}
	}
	if !p.lexicon.starts.has(g) {
		return Numeral{}, j, false
	}
	n, ok = p.wordNumeral(i, j)
	return n, j, ok
}

// At reads a numeral at t[i], in digits, a fraction character or words,
// or reports there is none.
func (p *Parser) At(i int) (Numeral, bool) {
	t := p.text
	switch {
	case i >= len(t):
		return Numeral{}, false
	case IsDigit(t[i]):
		n, _, ok := p.Digits(i)
		return n, ok
	case IsASCIILetter(t[i]):
		return p.wordNumeral(i, WordEnd(t, i))
	}
	return p.Vulgar(i)
}
