package units

import (
	"testing"
)

// FuzzParse checks what must hold for any input: no panic, spans inside the
// input and equal to Surface, results sorted, links pointing inside.
func FuzzParse(f *testing.F) {
	for _, c := range loadLabelled(f) {
		f.Add(c.Text, c.Lang == "pt", c.Header)
	}
	for _, c := range loadSentences(f) {
		f.Add(c.Text, c.Lang == "pt", "")
	}
	f.Add("−", true, "°C")
	f.Add("1.2.3.4.5.6.7.8 m", false, "")
	f.Add("99999999999999999999999999 km", true, "")
	f.Add("entre -−2 e 3 °C", true, "")
	f.Add("2 – ", false, "m")
	f.Add("a mile and a", false, "")
	f.Add("1m7 6'2 3 1/", true, "")
	f.Add("-minus -5 degrees below zero", false, "")
	f.Add("vinte e e cinco mil mil metros e meio", true, "")
	f.Add("10⁻ 3×10^ 2e 5k", false, "")
	f.Fuzz(func(t *testing.T, text string, pt bool, header string) {
		opt := Options{Lang: "en", HeaderUnit: header}
		if pt {
			opt.Lang = "pt"
		}
		qs := Parse(text, opt)
		for i, q := range qs {
			if q.Start < 0 || q.End > len(text) || q.Start >= q.End {
				t.Fatalf("[%d] got span [%d,%d), want inside [0,%d) and non-empty", i, q.Start, q.End, len(text))
			}
			if text[q.Start:q.End] != q.Surface {
				t.Fatalf("[%d] got Surface %q, want input[%d:%d] = %q", i, q.Surface, q.Start, q.End, text[q.Start:q.End])
			}
			if i > 0 && qs[i-1].Start > q.Start {
				t.Fatalf("[%d] got Start %d after %d, want sorted", i, q.Start, qs[i-1].Start)
			}
			if q.EquivalentOf < -1 || q.EquivalentOf >= len(qs) || q.EquivalentOf == i {
				t.Fatalf("[%d] got EquivalentOf %d, want -1 or another index below %d", i, q.EquivalentOf, len(qs))
			}
			if q.SIUnit != siUnitOf(q.Dimension) {
				t.Fatalf("[%d] got SI unit %q for %s", i, q.SIUnit, q.Dimension)
			}
		}
	})
}
