package units

import (
	"math"
	"unicode/utf8"
)

// numeral is a number as people write it before a unit: digits ("1,5"),
// a fraction or mixed number ("3/4", "3 1/4", "2½"), scientific notation
// ("3×10⁸"), a magnitude ("1.5k", "5 mil") or words ("vinte e cinco",
// "two and a half"). Its span holds no sign: signs belong to temperatures
// and are read once the unit is known.
type numeral struct {
	start, end int
	value      float64
	// fraction marks "3/4", "½", "três quartos": such a number may reach
	// its unit through "de" or "of a" ("3/4 de milha", "half a mile").
	fraction bool
	words    bool // written in words
	integer  bool // a whole number, so "and a half" may follow its unit
	// kilo marks a glued "k" ("5k"): with a unit it multiplies by 1000
	// ("1.5k feet"); alone it is a race distance in kilometres.
	kilo bool
	plus bool // written after a "+", so only a temperature may follow
	// inchy marks a numeral after which "in" is inches rather than the
	// preposition unless an article follows: a fraction ("7/16 in"), or the
	// second part of a compound ("5 ft 8 in").
	inchy bool
	// oneOf marks the article of "a mile and a half": a quantity only with
	// that "and a half".
	oneOf bool
}

// maxDenominator bounds the fractions read: "7/16 in" and "1/64" are
// measurements, "12/31" is a date.
const maxDenominator = 64

// digitNumeral reads the numeral whose digits start at text[i]. It returns
// ok=false for a run that is no number or no measurement ("1.2.3", "4/3",
// "24/7", "12/05/2024"), with skip the position to resume scanning from.
func (p *parser) digitNumeral(i int) (n numeral, skip int, ok bool) {
	t := p.text
	num, ok := scanNumber(t, i, p.pt)
	if !ok {
		return n, num.end, false
	}
	n = numeral{start: i, end: num.end, value: num.value(t), integer: num.decimal < 0 && num.thousands == 0}
	if n.integer && num.end < len(t) && t[num.end] == '/' {
		f, fEnd, isFrac := fractionAfterSlash(t, num.end, n.value)
		if !isFrac {
			return n, fEnd, false
		}
		if fEnd > 0 {
			n.value, n.end, n.fraction, n.integer, n.inchy = f, fEnd, true, false, true
			return n, n.end, true
		}
	}
	p.extendDigits(&n)
	return n, n.end, true
}

// fractionAfterSlash reads the denominator after the slash at t[slash].
// It returns end 0 when no digits follow (the slash is not a fraction's),
// isFrac=false with end past the run when the slash joins numbers that are
// no fraction of a unit: a date, "24/7", the wetsuit "4/3".
func fractionAfterSlash(t string, slash int, num float64) (v float64, end int, isFrac bool) {
	d := slash + 1
	e := skipDigits(t, d)
	if e == d {
		return 0, 0, true
	}
	if e < len(t) && (t[e] == '/' || ((t[e] == '.' || t[e] == ',') && e+1 < len(t) && isDigit(t[e+1]))) {
		return 0, skipDigits(t, e+1), false
	}
	if e-d > 2 {
		return 0, e, false
	}
	den := float64(0)
	for _, c := range []byte(t[d:e]) {
		den = den*10 + float64(c-'0')
	}
	if num < 1 || num >= den || den > maxDenominator {
		return 0, e, false
	}
	return num / den, e, true
}

// extendDigits grows an integer or decimal over what may follow it in the
// same number: a fraction ("3 1/4", "2½"), a power of ten ("3×10⁸",
// "1.5 x 10^3", "3e8"), a magnitude ("1.5k", "5 thousand", "2 mil") or
// "and a half".
func (p *parser) extendDigits(n *numeral) {
	t := p.text
	if n.integer {
		if f, end, ok := mixedFraction(t, n.end); ok {
			n.value += f
			n.end, n.fraction, n.integer, n.inchy = end, true, false, true
			return
		}
	}
	if exp, end, ok := powerOfTen(t, n.end, n.value == 10 && n.integer); ok {
		if end > n.end && n.value == 10 && n.integer && !hasTimes(t, n.end) {
			n.value = math.Pow10(exp)
		} else {
			n.value *= math.Pow10(exp)
		}
		n.end, n.integer = end, false
		return
	}
	if n.end < len(t) && (t[n.end] == 'k' || t[n.end] == 'K') && !wordByteAt(t, n.end+1) {
		n.end++
		n.kilo, n.integer = true, false
		return
	}
	if m, end := p.magnitudeWord(n.end); m > 0 {
		n.value *= m
		n.end = end
		return
	}
	if n.integer && !p.pt && hasPrefixFold(t[n.end:], " and a half") && !wordByteAt(t, n.end+11) {
		n.value += 0.5
		n.end += 11
		n.integer = false
	}
}

// mixedFraction reads the fraction of a mixed number after its whole part
// ends at i: "½" glued, or one space and "½" or "1/4".
func mixedFraction(t string, i int) (float64, int, bool) {
	if f, size := vulgarFraction(t, i); size > 0 {
		return f, i + size, true
	}
	w := spaceWidth(t, i)
	if w == 0 {
		return 0, 0, false
	}
	j := i + w
	if f, size := vulgarFraction(t, j); size > 0 {
		return f, j + size, true
	}
	e := skipDigits(t, j)
	if e == j || e-j > 2 || e >= len(t) || t[e] != '/' {
		return 0, 0, false
	}
	num := 0.0
	for _, c := range []byte(t[j:e]) {
		num = num*10 + float64(c-'0')
	}
	f, end, ok := fractionAfterSlash(t, e, num)
	if !ok || end == 0 {
		return 0, 0, false
	}
	return f, end, true
}

// vulgarFractions maps the Unicode fraction characters to their values.
var vulgarFractions = map[rune]float64{
	'½': 1.0 / 2, '¼': 1.0 / 4, '¾': 3.0 / 4, '⅓': 1.0 / 3, '⅔': 2.0 / 3,
	'⅕': 1.0 / 5, '⅖': 2.0 / 5, '⅗': 3.0 / 5, '⅘': 4.0 / 5, '⅙': 1.0 / 6, '⅚': 5.0 / 6,
	'⅛': 1.0 / 8, '⅜': 3.0 / 8, '⅝': 5.0 / 8, '⅞': 7.0 / 8,
}

// vulgarFraction returns the value of a fraction character at t[i] and
// its width, 0 when there is none.
func vulgarFraction(t string, i int) (float64, int) {
	if i >= len(t) || (t[i] != 0xC2 && t[i] != 0xE2) {
		return 0, 0
	}
	r, size := utf8.DecodeRuneInString(t[i:])
	if f, ok := vulgarFractions[r]; ok {
		return f, size
	}
	return 0, 0
}

// vulgarNumeral reads a numeral that is a fraction character alone: "½ mile".
func (p *parser) vulgarNumeral(i int) (numeral, bool) {
	f, size := vulgarFraction(p.text, i)
	if size == 0 || !p.freeStanding(i) {
		return numeral{}, false
	}
	return numeral{start: i, end: i + size, value: f, fraction: true, inchy: true}, true
}

// wordByteAt reports whether t[i] continues a word: a letter, a digit or
// the first byte of a non-ASCII letter.
func wordByteAt(t string, i int) bool {
	if i >= len(t) {
		return false
	}
	c := t[i]
	if c < utf8.RuneSelf {
		return isDigit(c) || isASCIILetter(c) || c == '_'
	}
	r, _ := utf8.DecodeRuneInString(t[i:])
	return isLetter(r)
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// hasPrefixFold is hasPrefix ignoring ASCII case; prefix is lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for k := 0; k < len(prefix); k++ {
		if asciiLower(s[k]) != prefix[k] {
			return false
		}
	}
	return true
}
