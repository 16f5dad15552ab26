package stages

import (
	"math"
	"strconv"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// groundTolerance is how close (relative) a model's value must be to a
// quantity of the text: enough for "5 ft" stated as 1.52 m, not for 1.5 → 2.
const groundTolerance = 0.02

// ground keeps the model's proposed thresholds that the units parser finds
// in the chunk (same SI value within tolerance) and returns the rest as
// ungrounded: a model may read a bound into a chunk, it may not invent one.
// A proposal the rule extractor already made is not repeated.
func ground(c schema.Chunk, proposed []models.ProposedThreshold, ungrounded []artifacts.UngroundedThreshold) ([]schema.Threshold, []artifacts.UngroundedThreshold) {
	var out []schema.Threshold
	for _, p := range proposed {
		si, unit, ok := siOf(p.Value, p.Unit)
		var match *schema.Quantity
		for i, q := range c.Quantities {
			if ok && q.SIUnit == unit && near(q.SIValue, si) {
				match = &c.Quantities[i]
				break
			}
		}
		if match == nil {
			ungrounded = append(ungrounded, artifacts.UngroundedThreshold{Chunk: c.Key(), Subject: p.Subject, Comparator: p.Comparator, Value: p.Value, Unit: p.Unit})
			continue
		}
		if stated(c.Thresholds, p.Comparator, si) {
			continue
		}
		out = append(out, schema.Threshold{
			Subject: p.Subject, Comparator: p.Comparator, Value: match.SIValue, SIUnit: unit, Surface: match.Surface,
			DocPath: c.DocPath, SectionPath: c.SectionPath, Line: c.LineStart + lineOffset(c.Text, match.Start),
			ContentHash: c.ContentHash, Lang: c.Lang, Origin: "model",
		})
	}
	return out, ungrounded
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

func stated(ts []schema.Threshold, comparator string, si float64) bool {
	for _, t := range ts {
		if t.Comparator == comparator && near(t.Value, si) {
			return true
		}
	}
	return false
}

func near(a, b float64) bool {
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
