package thresholds

import (
	"math"
	"strconv"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// groundTolerance is how close (relative) a model's value must be to a
// quantity of the text: enough for "5 ft" stated as 1.52 m, not for 1.5 → 2.
const groundTolerance = 0.02

// Ground keeps the model's proposed thresholds that the units parser finds
// in the chunk (same SI value within tolerance) and returns the rest as
// ungrounded: a model may read a bound into a chunk, it may not invent one.
// A between is checked as the rules read one: its value (the lower end, as
// the prompt asks) must open a range of the text ("1–2 m", "entre 18 e 22
// °C"), whose upper end it takes. A proposal the rule extractor already
// made is not repeated.
func Ground(c schema.Chunk, proposed []schema.ProposedThreshold) (kept []schema.Threshold, ungrounded []schema.ProposedThreshold) {
	var ranges []units.Quantity // parsed on the first between
	parsed := false
	for _, p := range proposed {
		si, unit, ok := siOf(p.Value, p.Unit)
		var t schema.Threshold
		var found bool
		if p.Comparator == schema.ComparatorBetween {
			if !parsed {
				ranges, parsed = quantities(&c), true
			}
			t, found = groundRange(c, ranges, si, unit, ok)
		} else {
			t, found = groundValue(c, si, unit, ok)
		}
		if !found {
			ungrounded = append(ungrounded, p)
			continue
		}
		if stated(c.Thresholds, p.Comparator, t.Value, t.Value2) {
			continue
		}
		t.Subject, t.Comparator, t.SIUnit = p.Subject, p.Comparator, unit
		t.DocPath, t.SectionPath, t.ContentHash, t.Lang, t.Origin = c.DocPath, c.SectionPath, c.ContentHash, c.Lang, "model"
		kept = append(kept, t)
	}
	return kept, ungrounded
}

// groundValue finds the quantity of c holding si in unit: the threshold's
// value, surface and line.
func groundValue(c schema.Chunk, si float64, unit string, ok bool) (schema.Threshold, bool) {
	for _, q := range c.Quantities {
		if ok && q.SIUnit == unit && groundNear(q.SIValue, si) {
			return schema.Threshold{Value: q.SIValue, Surface: q.Surface, Line: c.LineStart + lineOffset(c.Text, q.Start)}, true
		}
	}
	return schema.Threshold{}, false
}

// groundRange finds the range of c whose lower end holds si in unit (qs
// are c's quantities as units.Parse returned them, with their range ids):
// the threshold's two values, its surface from the lower end's number to
// the upper end's unit, and its line.
func groundRange(c schema.Chunk, qs []units.Quantity, si float64, unit string, ok bool) (schema.Threshold, bool) {
	for i := 0; ok && i+1 < len(qs); i++ {
		lo, hi := qs[i], qs[i+1]
		if lo.Range == 0 || hi.Range != lo.Range || lo.EquivalentOf >= 0 || lo.SIUnit != unit || !groundNear(lo.SIValue, si) ||
			lo.Start < 0 || lo.Start >= hi.End || hi.End > len(c.Text) {
			continue
		}
		return schema.Threshold{Value: lo.SIValue, Value2: hi.SIValue, Surface: c.Text[lo.Start:hi.End],
			Line: c.LineStart + lineOffset(c.Text, lo.Start)}, true
	}
	return schema.Threshold{}, false
}

// siOf converts a model's value and unit through the units parser, so the
// model's spelling ("knots", "nós", "°F") is read like the corpus's.
func siOf(v float64, unit string) (float64, string, bool) {
	qs := units.Parse(strconv.FormatFloat(v, 'f', -1, 64)+" "+unit, units.Options{Lang: "en"})
	if len(qs) != 1 {
		return 0, "", false
	}
	return qs[0].SIValue, qs[0].SIUnit, true
}

func stated(ts []schema.Threshold, comparator string, si, si2 float64) bool {
	for _, t := range ts {
		if t.Comparator == comparator && groundNear(t.Value, si) && groundNear(t.Value2, si2) {
			return true
		}
	}
	return false
}

func groundNear(a, b float64) bool {
	return math.Abs(a-b) <= groundTolerance*math.Max(math.Abs(a), math.Abs(b))
}

func lineOffset(text string, at int) int {
	n := 0
	for i := 0; i < at && i < len(text); i++ {
		if text[i] == '\n' {
			n++
		}
	}
	return n
}
