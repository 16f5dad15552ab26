package units

import (
	"unicode"
	"unicode/utf8"
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

// spaceWidth is the width of the space at t[i] that may sit between a
// number and its unit: ASCII, no-break (U+00A0), narrow no-break (U+202F)
// or thin (U+2009); 0 when there is none.
func spaceWidth(t string, i int) int {
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

// standing says what comes before a number's first digit.
type standing uint8

const (
	alone     standing = iota // a number of its own
	notNumber                 // part of an identifier, a date, money, a phone
	afterPlus                 // after a "+" of its own: "+5°", but also "+55"
)

// freeStanding reports whether a number starting at start is a number of
// its own.
func (p *parser) freeStanding(start int) bool { return p.standing(start) == alone }

// standing tells a number of its own from part of an identifier ("v1",
// "SC-401", "COVID-19"), a host and port ("localhost:4317"), a date or
// time ("12/05", "10:30") or money ("R$
// 5"). After a "+" it may be a phone code ("+55") or a signed temperature
// ("+5°"): the unit decides.
func (p *parser) standing(start int) standing {
	t := p.text
	if start == 0 {
		return alone
	}
	r, size := utf8.DecodeLastRuneInString(t[:start])
	before := func() rune {
		r2, _ := utf8.DecodeLastRuneInString(t[:start-size])
		return r2
	}
	switch {
	case unicode.IsLetter(r) || unicode.IsNumber(r):
		return notNumber
	case r == '+':
		if b := before(); start == 1 || unicode.IsSpace(b) || b == '(' {
			return afterPlus
		}
		return notNumber
	case r == '_' || r == '#' || r == '$' || r == '€' || r == '£' || r == '@':
		return notNumber
	case r == '-' || r == '–' || r == '‐':
		if unicode.IsLetter(before()) {
			return notNumber
		}
	case r == ':':
		if b := before(); unicode.IsDigit(b) || unicode.IsLetter(b) {
			return notNumber // "10:30", "localhost:4317", "endpoint:443"
		}
	case r == '/' || r == '.' || r == ',':
		if unicode.IsDigit(before()) {
			return notNumber
		}
	case r == ' ' || r == '\u00a0':
		if before() == '$' {
			return notNumber
		}
	}
	return alone
}
