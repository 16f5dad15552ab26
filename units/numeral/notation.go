package numeral

import (
	"strings"
	"unicode/utf8"
)

// hasTimes reports whether a multiplication sign follows t[i:], after
// optional spaces.
func hasTimes(t string, i int) bool {
	i += SpaceWidth(t, i)
	return timesWidth(t, i) > 0
}

func timesWidth(t string, i int) int {
	switch {
	case i >= len(t):
		return 0
	case t[i] == 'x' || t[i] == 'X' || t[i] == '*':
		return 1
	case strings.HasPrefix(t[i:], "×"), strings.HasPrefix(t[i:], "·"):
		return 2
	}
	return 0
}

// powerOfTen reads "×10⁸", " x 10^3", "e8" after a number ending at i, or,
// when bare10 (the number is "10"), a superscript exponent alone ("10⁴").
// It returns the exponent and the end.
func powerOfTen(t string, i int, bare10 bool) (int, int, bool) {
	if bare10 {
		if exp, end, ok := exponent(t, i); ok {
			return exp, end, true
		}
	}
	if i+1 < len(t) && (t[i] == 'e' || t[i] == 'E') {
		j := i + 1
		neg := false
		if t[j] == '-' || t[j] == '+' {
			neg = t[j] == '-'
			j++
		}
		e := skipDigits(t, j)
		if e > j && e-j <= 2 && !WordByteAt(t, e) {
			return signedExp(atoiSmall(t[j:e]), neg), e, true
		}
		return 0, 0, false
	}
	j := i + SpaceWidth(t, i)
	w := timesWidth(t, j)
	if w == 0 {
		return 0, 0, false
	}
	j += w
	j += SpaceWidth(t, j)
	if !strings.HasPrefix(t[j:], "10") {
		return 0, 0, false
	}
	return exponent(t, j+2)
}

// exponent reads a superscript exponent ("⁸", "⁻³") or a caret one ("^3",
// "^-3") at t[i].
func exponent(t string, i int) (int, int, bool) {
	if i < len(t) && t[i] == '^' {
		j := i + 1
		neg := j < len(t) && t[j] == '-'
		if neg {
			j++
		}
		e := skipDigits(t, j)
		if e == j || e-j > 2 {
			return 0, 0, false
		}
		return signedExp(atoiSmall(t[j:e]), neg), e, true
	}
	j, v, digits, neg := i, 0, 0, false
	for j < len(t) && digits <= 2 {
		r, size := utf8.DecodeRuneInString(t[j:])
		d, ok := superscriptDigit(r)
		switch {
		case r == '⁻' && digits == 0 && !neg:
			neg = true
		case ok:
			v = v*10 + d
			digits++
		default:
			return signedExp(v, neg), j, digits > 0 && digits <= 2
		}
		j += size
	}
	return signedExp(v, neg), j, digits > 0 && digits <= 2
}

func superscriptDigit(r rune) (int, bool) {
	switch {
	case r == '⁰':
		return 0, true
	case r == '¹':
		return 1, true
	case r == '²':
		return 2, true
	case r == '³':
		return 3, true
	case r >= '⁴' && r <= '⁹':
		return int(r-'⁴') + 4, true
	}
	return 0, false
}

func signedExp(v int, neg bool) int {
	if neg {
		return -v
	}
	return v
}

func atoiSmall(s string) int {
	v := 0
	for _, c := range []byte(s) {
		v = v*10 + int(c-'0')
	}
	return v
}

// magnitudeWord reads " thousand", " hundred" (English) or " mil"
// (Portuguese) after a number ending at i: "5 thousand feet", "35 mil pés".
func (p *Parser) magnitudeWord(i int) (float64, int) {
	t := p.text
	w := SpaceWidth(t, i)
	if w == 0 {
		return 0, i
	}
	j := i + w
	words := [...]struct {
		word string
		m    float64
		pt   bool
	}{{"thousand", 1000, false}, {"hundred", 100, false}, {"mil", 1000, true}}
	for _, mw := range words {
		end := j + len(mw.word)
		if mw.pt == p.pt && HasPrefixFold(t[j:], mw.word) && !WordByteAt(t, end) {
			return mw.m, end
		}
	}
	return 0, i
}
