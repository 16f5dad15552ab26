package thresholds

import (
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// Normaliser finds the quantities in a chunk (m/ft, kn/km/h/m/s, °C/°F, in
// English and Portuguese) with their SI values, and the thresholds they
// state. The chunk's text is never rewritten: quantities are annotations.
type Normaliser struct{}

// Normalise fills c.Quantities and c.Thresholds.
func (Normaliser) Normalise(c *schema.Chunk) {
	qs := quantities(c)
	c.Quantities = c.Quantities[:0]
	for _, q := range qs {
		c.Quantities = append(c.Quantities, schema.Quantity{
			Surface: q.Surface, Value: q.Value, Unit: q.Unit, Dimension: string(q.Dimension),
			SIValue: q.SIValue, SIUnit: q.SIUnit, Start: q.Start, End: q.End,
			// Code points, for consumers whose strings count characters.
			CharStart: utf8.RuneCountInString(c.Text[:q.Start]), CharEnd: utf8.RuneCountInString(c.Text[:q.End]),
		})
	}
	c.Thresholds = Extract(*c, qs)
}

// quantities parses a chunk's text; a table row is parsed cell by cell, so a
// bare number takes the unit of its column header.
func quantities(c *schema.Chunk) []units.Quantity {
	opt := units.Options{Lang: string(c.Lang)}
	if len(c.Cells) == 0 {
		return units.Parse(c.Text, opt)
	}
	var out []units.Quantity
	ranges := 0 // range ids, kept unique across cells
	for _, cell := range c.Cells {
		o := opt
		o.HeaderUnit = units.UnitFromHeader(cell.Header)
		base, top := len(out), ranges // a cell's links and ranges count from its own results
		for _, q := range units.Parse(c.Text[cell.Start:cell.End], o) {
			q.Start += cell.Start
			q.End += cell.Start
			if q.EquivalentOf >= 0 {
				q.EquivalentOf += base
			}
			if q.Range > 0 {
				q.Range += top
				ranges = max(ranges, q.Range)
			}
			out = append(out, q)
		}
	}
	return out
}
