package units

import (
	"unicode"
	"unicode/utf8"
)

// Parse returns the quantities found in text, sorted by Start.
func Parse(text string, opt Options) []Quantity {
	p := parser{text: text, pt: opt.Lang == "pt"}
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
}

// scan walks the text once, reading each run of digits and keeping those a
// unit follows. It never backtracks: after a number it resumes past the
// number, or past the unit when one was found.
func (p *parser) scan() {
	t := p.text
	for i := 0; i < len(t); {
		if !isDigit(t[i]) {
			i++
			continue
		}
		n, ok := scanNumber(t, i, p.pt)
		if !ok || !p.freeStanding(n.start) {
			i = n.end
			continue
		}
		i = p.quantityFrom(n)
	}
}

// quantityFrom records the quantity or range that starts with number n and
// returns where scanning resumes.
func (p *parser) quantityFrom(n number) int {
	if d, uStart, uEnd := p.unitAfter(n.end); d != nil {
		p.add(p.signed(n.start, d), uEnd, n, d, p.text[uStart:uEnd], 0)
		return uEnd
	}
	if end, ok := p.rangeFrom(n); ok {
		return end
	}
	return n.end
}

// rangeFrom reads "2–3 m", "2 to 3 m", "de 10 a 15 nós" and "entre 15 e
// 18 °C": a bare number, a connector, and a number with a unit that both
// ends share.
func (p *parser) rangeFrom(lo number) (int, bool) {
	t := p.text
	cEnd, ok := connector(t, lo.end, lo.start)
	if !ok {
		return 0, false
	}
	digits := cEnd + signWidth(t, cEnd)
	if digits >= len(t) || !isDigit(t[digits]) {
		return 0, false
	}
	hi, ok := scanNumber(t, digits, p.pt)
	if !ok {
		return 0, false
	}
	d, uStart, uEnd := p.unitAfter(hi.end)
	if d == nil || (digits > cEnd && d.dim != Temperature) {
		return 0, false
	}
	p.ranges++
	unit := t[uStart:uEnd]
	p.add(p.signed(lo.start, d), lo.end, lo, d, unit, p.ranges)
	p.add(cEnd, uEnd, hi, d, unit, p.ranges)
	return uEnd, true
}

// unitAfter finds a unit right after a number, after one space of any
// width, or after a hyphen ("a 6-foot swell").
func (p *parser) unitAfter(pos int) (d *unitDef, start, end int) {
	t := p.text
	if d, end := matchUnit(t, pos, p.pt); d != nil {
		return d, pos, end
	}
	if w := spaceWidth(t, pos); w > 0 {
		if d, end := matchUnit(t, pos+w, p.pt); d != nil {
			return d, pos + w, end
		}
		return nil, 0, 0
	}
	if pos < len(t) && t[pos] == '-' {
		if d, end := matchUnit(t, pos+1, p.pt); d != nil && d.rules&noHyphen == 0 {
			return d, pos + 1, end
		}
	}
	return nil, 0, 0
}

// add records a quantity spanning text[start:end] whose number is n.
func (p *parser) add(start, end int, n number, d *unitDef, unit string, rangeID int) {
	v := n.value(p.text)
	if start < n.start {
		v = -v
	}
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
}

// signed returns where a quantity starting with the digits at start really
// starts: before a minus sign for a temperature, at the digits otherwise.
func (p *parser) signed(start int, d *unitDef) int {
	if d.dim != Temperature {
		return start
	}
	t := p.text
	s := start
	switch {
	case s >= 1 && t[s-1] == '-':
		s--
	case s >= len(minusSign) && t[s-len(minusSign):s] == minusSign:
		s -= len(minusSign)
	default:
		return start
	}
	if s == 0 {
		return s
	}
	r, _ := utf8.DecodeLastRuneInString(t[:s])
	if unicode.IsSpace(r) || r == '(' || r == '[' {
		return s
	}
	return start
}

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

// freeStanding reports whether a number starting at start is a number of
// its own rather than part of an identifier ("v1", "SC-401", "COVID-19"),
// a date or time ("12/05", "10:30"), money ("R$ 5") or a phone code ("+55").
func (p *parser) freeStanding(start int) bool {
	t := p.text
	if start == 0 {
		return true
	}
	r, size := utf8.DecodeLastRuneInString(t[:start])
	before := func() rune {
		r2, _ := utf8.DecodeLastRuneInString(t[:start-size])
		return r2
	}
	switch {
	case unicode.IsLetter(r) || unicode.IsNumber(r):
		return false
	case r == '_' || r == '#' || r == '+' || r == '$' || r == '€' || r == '£' || r == '@':
		return false
	case r == '-' || r == '–' || r == '‐':
		return !unicode.IsLetter(before())
	case r == '/' || r == ':' || r == '.' || r == ',':
		return !unicode.IsDigit(before())
	case r == ' ' || r == '\u00a0':
		return before() != '$'
	}
	return true
}
