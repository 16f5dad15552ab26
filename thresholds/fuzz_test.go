package thresholds

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// FuzzExtract checks that any chunk text gives thresholds that point inside
// the chunk: no panic, a known comparator, a line within the chunk.
func FuzzExtract(f *testing.F) {
	for _, c := range append(proposalChunks(), conflictChunks()...) {
		f.Add(c.Text, c.Lang == schema.LangPT, c.Element == schema.ElementTableRow)
	}
	f.Add("entre 1 e 2 m\n\n- acima de\n3 °C ou menos", true, false)
	f.Add("35 knots (about 65 km/h) or more; 2 m deep at most beaches (", false, false)
	f.Fuzz(func(t *testing.T, text string, pt, row bool) {
		lang := schema.LangEN
		if pt {
			lang = schema.LangPT
		}
		c := chunkOf(text, lang)
		if row {
			c.Element = schema.ElementTableRow
		}
		ts := Extract(c, units.Parse(text, units.Options{Lang: string(lang)}))
		lastLine := c.LineStart + strings.Count(text, "\n")
		for i, th := range ts {
			switch th.Comparator {
			case schema.ComparatorAbove, schema.ComparatorBelow, schema.ComparatorBetween,
				schema.ComparatorAtLeast, schema.ComparatorAtMost:
			default:
				t.Fatalf("[%d] got comparator %q, want one of the schema's", i, th.Comparator)
			}
			if th.Line < c.LineStart || th.Line > lastLine {
				t.Fatalf("[%d] got line %d, want within %d..%d", i, th.Line, c.LineStart, lastLine)
			}
			if !strings.Contains(text, th.Surface) || th.Subject == "" {
				t.Fatalf("[%d] got surface %q subject %q, want a surface of the text and a subject", i, th.Surface, th.Subject)
			}
		}
		var b strings.Builder
		if err := Write(&b, ts); err != nil {
			t.Fatal(err)
		}
	})
}
