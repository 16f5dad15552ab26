package units

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// Parse returns the quantities found in text, sorted by Start.
func Parse(text string, opt Options) []Quantity {
	pt := opt.Lang == "pt"
	p := parser{text: text, pt: pt, numerals: numeral.NewParser(text, pt)}
	p.scan()
	if len(p.found) == 0 && opt.HeaderUnit != "" {
		p.cell(opt.HeaderUnit)
	}
	p.resolveDegrees()
	p.linkRanges()
	p.linkEquivalents()
	return p.quantities()
}

// found is a quantity under construction: its SI value waits until the
// scale of bare degrees is known.
type found struct {
	q   Quantity
	def *unitDef
	// scale is def.scale, or the scale a bare degree was resolved to.
	scale scale
}

type parser struct {
	text   string
	pt     bool
	found  []found
	ranges int // range ids handed out so far
	// numerals reads the numbers of the text in its language.
	numerals numeral.Parser
	// angleTopic is whether the text is about angles, found once when a
	// bare degree first asks (see isAngle).
	angleTopic angleTopic
}

// scan walks the text once. At each run of digits, each fraction
// character and each word that may open a number written in words, it reads
// a numeral and keeps it when a unit follows. It never backtracks: it
// resumes past the numeral, or past the unit when one was found; other
// words are skipped whole.
func (p *parser) scan() {
	t := p.text
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case numeral.IsDigit(c):
			i = p.fromDigits(i)
		case numeral.IsASCIILetter(c):
			i = p.fromWord(i)
		case c < utf8.RuneSelf:
			i++
		default:
			i = p.fromRune(i)
		}
	}
}

func (p *parser) fromDigits(i int) int {
	n, skip, ok := p.numerals.Digits(i)
	if !ok {
		return skip
	}
	switch p.numerals.Standing(i) {
	case numeral.NotNumber:
		return skip
	case numeral.AfterPlus:
		n.Plus = true
	}
	return p.quantityFrom(n)
}

// fromWord passes over the word starting at t[i] unless it opens a number
// in words (numeral.Parser.Word).
func (p *parser) fromWord(i int) int {
	n, j, ok := p.numerals.Word(i)
	if !ok {
		return j
	}
	return max(j, p.quantityFrom(n))
}

func (p *parser) fromRune(i int) int {
	if n, ok := p.numerals.Vulgar(i); ok {
		return p.quantityFrom(n)
	}
	r, size := utf8.DecodeRuneInString(p.text[i:])
	if unicode.IsLetter(r) {
		return numeral.WordEnd(p.text, i)
	}
	return i + size
}

// quantityFrom records the quantity or range that starts with numeral n
// and returns where scanning resumes.
func (p *parser) quantityFrom(n numeral.Numeral) int {
	d, uStart, uEnd := p.unitAfter(n)
	if d == nil {
		if n.OneOf {
			return n.End
		}
		if end, ok := p.rangeFrom(n); ok {
			return end
		}
		if n.Kilo && p.raceDistance(n) {
			p.add(n.Start, n.End, n.Value, &raceKilometre, p.text[n.End-1:n.End], 0)
		}
		return n.End
	}
	if (n.Plus && d.dim != Temperature) || p.vetoed(n, d, uStart, uEnd) {
		return uEnd
	}
	v := n.Value
	if n.Kilo {
		v *= 1000
	}
	start, neg := p.signed(n.Start, d)
	end := uEnd
	if d.dim == Temperature {
		if e, ok := p.belowZero(end); ok {
			end, neg = e, true
		}
	}
	if e, ok := p.andAHalf(end); ok && (n.Integer || n.OneOf) {
		end, v = e, v+0.5
	} else if n.OneOf {
		return uEnd // "a mile" alone is not a measurement
	}
	if neg {
		v = -v
	}
	k := p.add(start, end, v, d, p.text[uStart:uEnd], 0)
	if d.dim == Length && end == uEnd {
		return p.compound(k)
	}
	return end
}

// rangeFrom reads "2–3 m", "2 to 3 m", "de 10 a 15 nós", "entre 15 e
// 18 °C" and "six to eight feet": a bare numeral, a connector, and a
// numeral with a unit that both ends share.
func (p *parser) rangeFrom(lo numeral.Numeral) (int, bool) {
	t := p.text
	cEnd, ok := connector(t, lo.End, lo.Start)
	alt, size := false, false
	if !ok {
		cEnd, ok = alternative(t, lo.End)
		alt = ok
	}
	if !ok {
		cEnd, ok = by(t, lo.End)
		alt, size = ok, ok
	}
	if !ok {
		return 0, false
	}
	at := cEnd + signWidth(t, cEnd)
	hi, ok := p.numerals.At(at)
	if !ok {
		return 0, false
	}
	d, uStart, uEnd := p.unitAfter(hi)
	if d == nil || (at > cEnd && d.dim != Temperature) || (size && d.dim != Length) || p.vetoed(hi, d, uStart, uEnd) {
		return 0, false
	}
	if d.rules&tight != 0 && lo.Value > letterTempMax[d.scale] {
		return uEnd, true // "[1000-109F]": no temperature starts at 1000 F, so the letter is a hex digit
	}
	id := 0
	if !alt {
		p.ranges++
		id = p.ranges
	}
	unit := t[uStart:uEnd]
	loStart, loNeg := p.signed(lo.Start, d)
	p.add(loStart, lo.End, signedValue(lo.Value, loNeg), d, unit, id)
	p.add(cEnd, uEnd, signedValue(hi.Value, at > cEnd), d, unit, id)
	return uEnd, true
}

// alternative reads the "ou" or "or" between two values that share the
// unit written after the second: "0,25 ou 0,35 mm", "2 or 3 metres". The
// two are quantities of their own, not the ends of a range.
func alternative(t string, pos int) (int, bool) {
	for _, w := range []string{" ou ", " or "} {
		if strings.HasPrefix(t[pos:], w) {
			return pos + len(w), true
		}
	}
	return 0, false
}

// by reads the spaced "x" or "×" between the sides of a size that share
// the unit written after the second: "250 x 353 mm" (a paper size), "2 × 3
// m". Both sides are lengths of their own. Glued ("15x10cm", "8x8") it is
// left alone: numeral reads "3x10^8", and a grid of 8x8 has no unit.
func by(t string, pos int) (int, bool) {
	for _, w := range []string{" x ", " × "} {
		if strings.HasPrefix(t[pos:], w) {
			return pos + len(w), true
		}
	}
	return 0, false
}

func signedValue(v float64, neg bool) float64 {
	if neg {
		return -v
	}
	return v
}

// unitAfter finds a unit right after a numeral, after one space of any
// width, or after a hyphen ("a 6-foot swell", "a nine-mile run"). A
// fraction may reach its unit through "de" or "of a" ("3/4 de milha",
// "half a mile").
func (p *parser) unitAfter(n numeral.Numeral) (d *unitDef, start, end int) {
	t := p.text
	pos := n.End
	if d, end := p.matchAt(pos, n); d != nil {
		return d, pos, end
	}
	if w := numeral.SpaceWidth(t, pos); w > 0 {
		if d, end := p.matchAt(pos+w, n); d != nil {
			return d, pos + w, end
		}
		if n.Fraction {
			if at := p.fractionLink(pos + w); at > 0 {
				if d, end := p.matchAt(at, n); d != nil {
					return d, at, end
				}
			}
		}
		return nil, 0, 0
	}
	if pos < len(t) && t[pos] == '-' {
		if d, end := p.matchAt(pos+1, n); d != nil && d.rules&noHyphen == 0 {
			return d, pos + 1, end
		}
	}
	return nil, 0, 0
}

// matchAt matches a unit at t[pos] for numeral n: a prime only glued to
// digits that no quote or degree sign opens, and "in" more freely after a
// fraction ("a 7/16 in wrench"), where it is rarely the preposition.
func (p *parser) matchAt(pos int, n numeral.Numeral) (*unitDef, int) {
	d, end := matchUnit(p.text, pos, p.pt, n.Inchy)
	if d == nil {
		return nil, pos
	}
	if d.rules&prime != 0 && (pos != n.End || n.Words || !p.primeAllowed(n, end)) {
		return nil, pos
	}
	return d, end
}

// fractionLink skips the "de " (Portuguese) or "of a ", "of an ", "of ",
// "a ", "an " (English) between a fraction and its unit and returns where
// the unit would start, or 0.
func (p *parser) fractionLink(i int) int {
	t := p.text
	links := [...]struct {
		s  string
		pt bool
	}{{"de ", true}, {"of a ", false}, {"of an ", false}, {"of ", false}, {"a ", false}, {"an ", false}}
	for _, l := range links {
		if l.pt == p.pt && numeral.HasPrefixFold(t[i:], l.s) {
			return i + len(l.s)
		}
	}
	return 0
}

// add records a quantity spanning text[start:end] with value v (in unit d,
// sign included) and returns its index.
func (p *parser) add(start, end int, v float64, d *unitDef, unit string, rangeID int) int {
	p.found = append(p.found, found{
		q: Quantity{
			Surface:      p.text[start:end],
			Start:        start,
			End:          end,
			Value:        v,
			Unit:         unit,
			Dimension:    d.dim,
			SIUnit:       siUnitOf(d.dim),
			Range:        rangeID,
			EquivalentOf: -1,
		},
		def:   d,
		scale: d.scale,
	})
	return len(p.found) - 1
}
