package units

import (
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

const minusSign = "\u2212"

// signWidth is the width of a minus sign at t[i], 0 when there is none.
func signWidth(t string, i int) int {
	switch {
	case i < len(t) && t[i] == '-':
		return 1
	case len(t)-i >= len(minusSign) && t[i:i+len(minusSign)] == minusSign:
		return len(minusSign)
	}
	return 0
}

// signed returns where a quantity whose numeral starts at start really
// starts, and whether it is negative. Only a temperature takes a sign (a
// "-5 m" is far more often a dash in prose than a negative length): "-5",
// "−5", "+5", "minus 40", "negative 12", "menos 4". "Plus or minus" and
// "mais ou menos" are a tolerance, not a sign.
func (p *parser) signed(start int, d *unitDef) (int, bool) {
	if d.dim != Temperature {
		return start, false
	}
	t := p.text
	floor := 0 // a sign never reaches into the previous quantity
	if n := len(p.found); n > 0 {
		floor = p.found[n-1].q.End
	}
	s, neg := start, false
	switch {
	case s >= 1 && (t[s-1] == '-' || t[s-1] == '+'):
		s, neg = s-1, t[s-1] == '-'
	case s >= len(minusSign) && t[s-len(minusSign):s] == minusSign:
		s, neg = s-len(minusSign), true
	default:
		if ws, ok := p.signWord(start); ok && ws >= floor {
			return ws, true
		}
		return start, false
	}
	if s < floor {
		return start, false
	}
	if s == 0 {
		return s, neg
	}
	r, _ := utf8.DecodeLastRuneInString(t[:s])
	if isSpaceRune(r) || r == '(' || r == '[' {
		return s, neg
	}
	return start, false
}

// signWords negate the temperature right after them.
var signWords = []string{"minus", "negative", "menos"}

// signWord returns where a sign word before the numeral at start begins.
func (p *parser) signWord(start int) (int, bool) {
	t := p.text
	w := spaceWidthBefore(t, start)
	if w == 0 {
		return 0, false
	}
	word, ws := prevWord(t, start-w)
	if ws+len(word) != start-w {
		return 0, false
	}
	for _, sw := range signWords {
		if len(word) == len(sw) && numeral.HasPrefixFold(word, sw) {
			prev, _ := prevWord(t, ws)
			if lp := lowerASCII(prev); lp == "or" || lp == "ou" {
				return 0, false // "plus or minus 2", "mais ou menos 20"
			}
			return ws, true
		}
	}
	return 0, false
}

// belowZero reads " below zero", " abaixo de zero" or " negativos" after a
// temperature's unit ending at end: "6 graus abaixo de zero" is −6.
func (p *parser) belowZero(end int) (int, bool) {
	t := p.text
	if numeral.SpaceWidth(t, end) != 1 {
		return 0, false
	}
	for _, s := range []string{"below zero", "abaixo de zero", "abaixo do zero", "negativos", "negativo"} {
		e := end + 1 + len(s)
		if numeral.HasPrefixFold(t[end+1:], s) && !numeral.WordByteAt(t, e) {
			return e, true
		}
	}
	return 0, false
}

// andAHalf reads " and a half" or " e meio", " e meia" after a unit
// ending at end: "a mile and a half", "dois metros e meio".
func (p *parser) andAHalf(end int) (int, bool) {
	t := p.text
	if numeral.SpaceWidth(t, end) != 1 {
		return 0, false
	}
	halves := []string{"e meio", "e meia"}
	if !p.pt {
		halves = []string{"and a half"}
	}
	for _, s := range halves {
		e := end + 1 + len(s)
		if numeral.HasPrefixFold(t[end+1:], s) && !numeral.WordByteAt(t, e) {
			return e, true
		}
	}
	return 0, false
}

// spaceWidthBefore is the width of the space ending at t[i], 0 when none.
func spaceWidthBefore(t string, i int) int {
	if i <= 0 {
		return 0
	}
	r, size := utf8.DecodeLastRuneInString(t[:i])
	if r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' {
		return size
	}
	return 0
}

func isSpaceRune(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u00a0' || r == '\u202f' || r == '\u2009'
}

// lowerASCII lower-cases the ASCII letters of a short word.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = numeral.ASCIILower(b[j])
			}
			return string(b)
		}
	}
	return s
}
