package units

import (
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// maxQuoteLookback bounds how far back an opening quote is looked for: a
// quoted phrase on the same line.
const maxQuoteLookback = 80

// primeAllowed reports whether a prime or quote mark glued to numeral n
// (ending at end) is feet or inches: "9′", "14″", "6' 2"", "a 14" board".
// It is not after a degree sign (27°35′ is a coordinate) nor where it
// closes a quote the text opened before the number ("12", 'Beach 3').
func (p *parser) primeAllowed(n numeral.Numeral, end int) bool {
	t := p.text
	if n.Inchy && !n.Fraction {
		return true // the inches of "6' 2"", after its feet
	}
	if n.Start > 0 {
		switch r, _ := utf8.DecodeLastRuneInString(t[:n.Start]); r {
		case '°', 'º', '′', '″', '\'', '"', '‘', '’', '“', '”':
			return false
		}
	}
	mark, _ := utf8.DecodeRuneInString(t[n.End:end])
	if mark == '′' || mark == '″' {
		return true // true primes are never quotes
	}
	return !p.opensQuote(n.Start, mark)
}

// opensQuote reports whether the nearest quote mark of the same family as
// mark before pos, on the same line, opens a quotation: the line start,
// white space or a sign before it, a non-space after it. A sign opens one
// in code and formulas as a space does in prose: `-o="-D 4"`,
// `=CONT.SES(B2:B6;">=20")`, `width="14"`.
func (p *parser) opensQuote(pos int, mark rune) bool {
	t := p.text
	double := mark == '"' || mark == '”'
	for i := pos; i > 0 && pos-i < maxQuoteLookback; {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		i -= size
		if r == '\n' {
			return false
		}
		isQuote := double && (r == '"' || r == '“' || r == '”') || !double && (r == '\'' || r == '‘' || r == '’' || r == '`')
		if !isQuote {
			continue
		}
		if r == '“' || r == '‘' || r == '`' { // "`-1'" quotes as man pages and TeX do
			return true
		}
		before, _ := utf8.DecodeLastRuneInString(t[:i])
		after, _ := utf8.DecodeRuneInString(t[i+size:])
		return (i == 0 || opensAfter(before)) && !isSpaceRune(after)
	}
	return false
}

// opensAfter reports whether a quote mark after r opens a quotation: r is
// white space or a sign, not a letter, a digit or a closing mark (the
// second quote of `12" x 14"` closes nothing).
func opensAfter(r rune) bool {
	switch r {
	case '(', '[', '{', '=', ';', ':', ',', '<', '>', '/':
		return true
	}
	return isSpaceRune(r)
}
