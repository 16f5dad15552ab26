package units

import (
	"strings"

	"github.com/ocean-safety/ingest/units/numeral"
)

// maxParts bounds a compound: "3 yards 2 ft 4 inches" has three.
const maxParts = 3

// joiner says what joins two parts of a compound.
type joiner uint8

const (
	glued joiner = iota // "1m75", "6'2""
	space               // "5 ft 8 in", "1 m 75"
	comma               // "2 feet, 3 inches"
	and                 // "7 feet and 6 inches", "1 metro e 90"
)

// compound grows the length just recorded at p.found[k] over the parts of
// the same measurement that follow it, so that "5 ft 8 in", "3 yards 2 ft
// 4 inches", "6' 2"", "1 m 75" and "um metro e setenta" are one quantity
// rather than parts that would also count as readings of their own. The
// quantity keeps its first unit; its value becomes the sum in that unit.
// A part may leave its unit out where heights do ("six foot four", "1 m
// 75"). It returns where scanning resumes.
func (p *parser) compound(k int) int {
	f := &p.found[k]
	first, last := f.def, f.def
	end := f.q.End
	for parts := 1; parts < maxParts; parts++ {
		at, j := p.joinerAt(end, last)
		if at < 0 {
			break
		}
		n, ok := p.numerals.At(at)
		if !ok {
			break
		}
		n.Inchy = true
		d, _, uEnd := p.unitAfter(n)
		if d == nil {
			if sub := p.implicitPart(last, parts, n, j); sub != nil {
				f.q.Value += n.Value * sub.factor / first.factor
				end = n.End
			}
			break
		}
		if d.dim != Length || d.scale != linear || d.factor >= last.factor || p.vetoed(n, d, at, uEnd) {
			break
		}
		if last.factor == factorFoot && d.factor == factorInch && n.Value >= 12 {
			if last.rules&prime != 0 { // "2' 30"" is a time, not a height
				p.found = p.found[:k]
				return uEnd
			}
			break
		}
		f.q.Value += n.Value * d.factor / first.factor
		end, last = uEnd, d
	}
	if end < len(p.text) && numeral.IsDigit(p.text[end]) && end == f.q.End {
		p.found = p.found[:k] // "1m7x": the glued digits were not a part
		return end
	}
	f.q.End = end
	f.q.Surface = p.text[f.q.Start:end]
	return end
}

// joinerAt returns where the next part of a compound would start after a
// part ending at end in unit last, and what joins them; -1 when nothing
// does. Digits glued to a unit continue only "1m75" and "6'2"".
func (p *parser) joinerAt(end int, last *unitDef) (int, joiner) {
	t := p.text
	switch {
	case end >= len(t):
		return -1, glued
	case numeral.IsDigit(t[end]):
		if last.rules&gluedPart != 0 {
			return end, glued
		}
		return -1, glued
	case strings.HasPrefix(t[end:], ", "):
		return end + 2, comma
	case !p.pt && strings.HasPrefix(t[end:], " and "):
		return end + 5, and
	case p.pt && strings.HasPrefix(t[end:], " e "):
		return end + 3, and
	}
	if w := numeral.SpaceWidth(t, end); w > 0 {
		return end + w, space
	}
	return -1, glued
}

// inchPart and centimetrePart are the units a part without one takes.
var (
	inchPart       = unitDef{spelling: "in", dim: Length, factor: factorInch}
	centimetrePart = unitDef{spelling: "cm", dim: Length, factor: factorCenti}
)

// implicitPart returns the unit of a part written without one: inches
// after feet ("six foot four", "6'2", "6 ft 2"), centimetres after metres
// ("1 m 75", "1m75", "um metro e setenta", "3 metros e 20"). The part must
// look like a height's: whole inches below 12, two-digit centimetres, and
// nothing after it that makes it a count of something else ("2 m 15
// seconds").
func (p *parser) implicitPart(last *unitDef, parts int, n numeral.Numeral, j joiner) *unitDef {
	if !n.Integer || n.Kilo || !p.partEnds(n.End) {
		return nil
	}
	switch {
	case last.factor == factorFoot && (j == glued || j == space) && n.Value < 12:
		return &inchPart
	case last.factor == factorUnity && parts == 1 && n.Value >= 10 && n.Value < 100 &&
		(j == glued || j == space || j == and && p.pt) && (n.Words || n.End-n.Start == 2):
		return &centimetrePart
	}
	return nil
}

// partFollowers may come after a part written without a unit.
var partFollowers = map[string]bool{
	"in": true, "de": true, "of": true, "tall": true, "high": true, "and": true, "e": true,
	"at": true, "with": true, "on": true, "by": true, "alto": true, "alta": true, "altura": true,
	"com": true, "no": true, "na": true, "aos": true, "por": true, "barefoot": true,
	"descalço": true, "descalça": true,
}

// partEnds reports whether a part without a unit, ending at end, ends the
// measurement: the text ends, punctuation follows, or a word that cannot
// be what the number counts.
func (p *parser) partEnds(end int) bool {
	t := p.text
	if end >= len(t) {
		return true
	}
	if w := numeral.SpaceWidth(t, end); w > 0 {
		s := end + w
		if s >= len(t) || !numeral.IsASCIILetter(t[s]) && !numeral.WordByteAt(t, s) {
			return true
		}
		e := numeral.WordEnd(t, s)
		return partFollowers[lowerASCII(t[s:e])]
	}
	return !numeral.WordByteAt(t, end) && t[end] != '/' && t[end] != '-'
}
