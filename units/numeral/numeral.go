package numeral

import (
	"math"
	"unicode/utf8"
)

// Numeral is a number as people write it before a unit: digits ("1,5"),
// a fraction or mixed number ("3/4", "3 1/4", "2½"), scientific notation
// ("3×10⁸"), a magnitude ("1.5k", "5 mil") or words ("vinte e cinco",
// "two and a half"). Its span holds no sign: signs belong to temperatures
// and are read once the unit is known.
type Numeral struct {
	Start, End int     // byte offsets of its span in the text
	Value      float64 // 0.75 for "3/4", 3e8 for "3×10⁸"; not a glued "k" (Kilo)
	// Fraction marks "3/4", "½", "três quartos": such a number may reach
	// its unit through "de" or "of a" ("3/4 de milha", "half a mile").
	Fraction bool
	Words    bool // written in words
	Integer  bool // a whole number, so "and a half" may follow its unit
	// Kilo marks a glued "k" ("5k"): with a unit it multiplies by 1000
	// ("1.5k feet"); alone it is a race distance in kilometres.
	Kilo bool
	// Plus marks a numeral written after a "+" (Standing is AfterPlus), so
	// only a temperature may follow; the caller sets it.
	Plus bool
	// Inchy marks a numeral after which "in" is inches rather than the
	// preposition unless an article follows: a fraction ("7/16 in"), or the
	// second part of a compound ("5 ft 8 in"), which the caller marks.
	Inchy bool
	// OneOf marks the article of "a mile and a half": a quantity only with
	// that "and a half".
	OneOf bool
}

// maxDenominator bounds the fractions of a mixed number and those after
// which "in" is inches: "7/16 in" and "1/64" are measurements, "12/31" is
// a date.
const maxDenominator = 64

// maxUnitDenominator bounds the other fractions: "1/100 mm", "1/72
// polegada" are a unit's fraction, before a unit that is no preposition.
const maxUnitDenominator = 1000

// Digits reads the numeral whose digits start at text[i]. It returns
// ok=false for a run that is no number or no measurement ("1.2.3", "4/3",
// "24/7", "12/05/2024"), with skip the position to resume scanning from.
func (p *Parser) Digits(i int) (n Numeral, skip int, ok bool) {
	t := p.text
	num, ok := ScanNumber(t, i, p.pt)
	if !ok {
		return n, num.End, false
	}
	n = Numeral{Start: i, End: num.End, Value: num.Value(t), Integer: num.decimal < 0 && num.thousands == 0}
	if n.Integer && num.End < len(t) && t[num.End] == '/' {
		den, fEnd, isFrac := fractionAfterSlash(t, num.End, n.Value, maxUnitDenominator)
		if !isFrac {
			return n, fEnd, false
		}
		if fEnd > 0 {
			n.Value, n.End, n.Fraction, n.Integer, n.Inchy = n.Value/den, fEnd, true, false, den <= maxDenominator
			return n, n.End, true
		}
	}
	p.extendDigits(&n)
	return n, n.End, true
}

// fractionAfterSlash reads the denominator, at most limit, after the
// slash at t[slash]. It returns end 0 when no digits follow (the slash is
// not a fraction's), isFrac=false with end past the run when the slash
// joins numbers that are no fraction of a unit: a date, "24/7", the
// wetsuit "4/3".
func fractionAfterSlash(t string, slash int, num, limit float64) (den float64, end int, isFrac bool) {
	d := slash + 1
	e := skipDigits(t, d)
	if e == d {
		return 0, 0, true
	}
	if e < len(t) && (t[e] == '/' || ((t[e] == '.' || t[e] == ',') && e+1 < len(t) && IsDigit(t[e+1]))) {
		return 0, skipDigits(t, e+1), false
	}
	if e-d > 4 {
		return 0, e, false
	}
	for _, c := range []byte(t[d:e]) {
		den = den*10 + float64(c-'0')
	}
	if num < 1 || num >= den || den > limit {
		return 0, e, false
	}
	return den, e, true
}

// extendDigits grows an integer or decimal over what may follow it in the
// same number: a fraction ("3 1/4", "2½"), a power of ten ("3×10⁸",
// "1.5 x 10^3", "3e8"), a magnitude ("1.5k", "5 thousand", "2 mil") or
// "and a half".
func (p *Parser) extendDigits(n *Numeral) {
	t := p.text
	if n.Integer {
		if f, end, ok := mixedFraction(t, n.End); ok {
			n.Value += f
			n.End, n.Fraction, n.Integer, n.Inchy = end, true, false, true
			return
		}
	}
	if exp, end, ok := powerOfTen(t, n.End, n.Value == 10 && n.Integer); ok {
		if end > n.End && n.Value == 10 && n.Integer && !hasTimes(t, n.End) {
			n.Value = math.Pow10(exp)
		} else {
			n.Value *= math.Pow10(exp)
		}
		n.End, n.Integer = end, false
		return
	}
	if n.End < len(t) && (t[n.End] == 'k' || t[n.End] == 'K') && !WordByteAt(t, n.End+1) {
		n.End++
		n.Kilo, n.Integer = true, false
		return
	}
	if m, end := p.magnitudeWord(n.End); m > 0 {
		n.Value *= m
		n.End = end
		return
	}
	if n.Integer && !p.pt && HasPrefixFold(t[n.End:], " and a half") && !WordByteAt(t, n.End+11) {
		n.Value += 0.5
		n.End += 11
		n.Integer = false
	}
}

// mixedFraction reads the fraction of a mixed number after its whole part
// ends at i: "½" glued, or one space and "½" or "1/4".
func mixedFraction(t string, i int) (float64, int, bool) {
	if f, size := vulgarFraction(t, i); size > 0 {
		return f, i + size, true
	}
	w := SpaceWidth(t, i)
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
	den, end, ok := fractionAfterSlash(t, e, num, maxDenominator)
	if !ok || end == 0 {
		return 0, 0, false
	}
	return num / den, end, true
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

// Vulgar reads a numeral that is a fraction character alone: "½ mile".
func (p *Parser) Vulgar(i int) (Numeral, bool) {
	f, size := vulgarFraction(p.text, i)
	if size == 0 || !p.freeStanding(i) {
		return Numeral{}, false
	}
	return Numeral{Start: i, End: i + size, Value: f, Fraction: true, Inchy: true}, true
}

// WordByteAt reports whether t[i] continues a word: a letter, a digit or
// the first byte of a non-ASCII letter.
func WordByteAt(t string, i int) bool {
	if i >= len(t) {
		return false
	}
	c := t[i]
	if c < utf8.RuneSelf {
		return IsDigit(c) || IsASCIILetter(c) || c == '_'
	}
	r, _ := utf8.DecodeRuneInString(t[i:])
	return isLetter(r)
}

// IsASCIILetter reports whether c is a–z or A–Z.
func IsASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// HasPrefixFold is strings.HasPrefix ignoring ASCII case; prefix is lower
// case.
func HasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for k := 0; k < len(prefix); k++ {
		if ASCIILower(s[k]) != prefix[k] {
			return false
		}
	}
	return true
}
