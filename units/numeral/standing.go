package numeral

import (
	"unicode"
	"unicode/utf8"
)

// SpaceWidth is the width of the space at t[i] that may sit between a
// number and its unit: ASCII, no-break (U+00A0), narrow no-break (U+202F)
// or thin (U+2009); 0 when there is none.
func SpaceWidth(t string, i int) int {
	if i >= len(t) {
		return 0
	}
	switch t[i] {
	case ' ':
		return 1
	case 0xC2:
		if i+1 < len(t) && t[i+1] == 0xA0 {
			return 2
		}
	case 0xE2:
		if i+2 < len(t) && t[i+1] == 0x80 && (t[i+2] == 0xAF || t[i+2] == 0x89) {
			return 3
		}
	}
	return 0
}

// Standing says what comes before a number's first digit.
type Standing uint8

const (
	Alone     Standing = iota // a number of its own
	NotNumber                 // part of an identifier, a date, money, a phone
	AfterPlus                 // after a "+" of its own: "+5°", but also "+55"
)

// freeStanding reports whether a number starting at start is a number of
// its own.
func (p *Parser) freeStanding(start int) bool { return p.Standing(start) == Alone }

// Standing tells a number of its own from part of an identifier ("v1",
// "SC-401", "COVID-19"), a host and port ("localhost:4317"), a date or
// time ("12/05", "10:30") or money ("R$
// 5"). After a "+" it may be a phone code ("+55") or a signed temperature
// ("+5°"): the unit decides.
func (p *Parser) Standing(start int) Standing {
	t := p.text
	if start == 0 {
		return Alone
	}
	r, size := utf8.DecodeLastRuneInString(t[:start])
	before := func() rune {
		r2, _ := utf8.DecodeLastRuneInString(t[:start-size])
		return r2
	}
	switch {
	case unicode.IsLetter(r) || unicode.IsNumber(r):
		return NotNumber
	case r == '+':
		if b := before(); start == 1 || unicode.IsSpace(b) || b == '(' {
			return AfterPlus
		}
		return NotNumber
	case r == '_' || r == '#' || r == '$' || r == '€' || r == '£' || r == '@':
		return NotNumber
	case r == '-' || r == '–' || r == '‐':
		if unicode.IsLetter(before()) {
			return NotNumber
		}
	case r == ':':
		if b := before(); unicode.IsDigit(b) || unicode.IsLetter(b) {
			return NotNumber // "10:30", "localhost:4317", "endpoint:443"
		}
	case r == '/' || r == '.' || r == ',':
		if unicode.IsDigit(before()) {
			return NotNumber
		}
	case r == ' ' || r == '\u00a0':
		if before() == '$' {
			return NotNumber
		}
	}
	return Alone
}
