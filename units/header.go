package units

import (
	"strings"

	"github.com/ocean-safety/ingest/units/numeral"
)

// UnitFromHeader returns the unit a table column header names, as written:
// "Água (°C)" → "°C", "Wind [kn]" → "kn", "Altura em metros" → "metros".
// It returns "" when the header names no unit Parse knows.
func UnitFromHeader(header string) string {
	h := strings.TrimSpace(header)
	if open := strings.LastIndexAny(h, "(["); open >= 0 {
		if close := strings.IndexAny(h[open:], ")]"); close > 0 {
			if u := strings.TrimSpace(h[open+1 : open+close]); lookupUnit(u, false) != nil {
				return u
			}
		}
	}
	// "Height in metres", "Altura em metros", "Vento, nós".
	for _, sep := range []string{" in ", " em ", ", ", " - ", " – "} {
		if i := strings.LastIndex(h, sep); i >= 0 {
			if u := strings.TrimSpace(h[i+len(sep):]); lookupUnit(u, false) != nil {
				return u
			}
		}
	}
	return ""
}

// cell reads a table cell that is only a number ("22") or a range
// ("22–24") in the unit of its column header. The number alone is the
// Surface, since the unit is not in the cell.
func (p *parser) cell(header string) {
	d := lookupUnit(strings.TrimSpace(header), p.pt)
	if d == nil {
		return
	}
	t := p.text
	end := len(strings.TrimRight(t, " \t\n\u00a0"))
	start := len(t) - len(strings.TrimLeft(t, " \t\n\u00a0"))
	lo, loStart, ok := p.cellNumber(start, d)
	if !ok {
		return
	}
	if lo.End == end {
		p.add(loStart, lo.End, p.cellValue(lo, loStart), d, header, 0)
		return
	}
	cEnd, ok := connector(t, lo.End, loStart)
	if !ok {
		return
	}
	hi, hiStart, ok := p.cellNumber(cEnd, d)
	if !ok || hi.End != end {
		return
	}
	p.ranges++
	p.add(loStart, lo.End, p.cellValue(lo, loStart), d, header, p.ranges)
	p.add(hiStart, hi.End, p.cellValue(hi, hiStart), d, header, p.ranges)
}

// cellValue is the value of a cell's number, negative when a minus sign
// starts it before the digits.
func (p *parser) cellValue(n numeral.Number, start int) float64 {
	return signedValue(n.Value(p.text), start < n.Start)
}

// cellNumber reads a number, signed when d is a temperature, at t[i].
func (p *parser) cellNumber(i int, d *unitDef) (numeral.Number, int, bool) {
	t := p.text
	digits := i
	if d.dim == Temperature {
		digits += signWidth(t, i)
	}
	if digits >= len(t) || !numeral.IsDigit(t[digits]) {
		return numeral.Number{}, 0, false
	}
	n, ok := numeral.ScanNumber(t, digits, p.pt)
	return n, i, ok
}
