package thresholds

import (
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
	"github.com/ocean-safety/ingest/units"
)

// OriginRule marks thresholds found by these rules, as opposed to a model.
const OriginRule = "rule"

// Extract finds the threshold statements in one chunk's text. qs are the
// quantities units.Parse found in c.Text; a quantity whose span does not
// fit c.Text is ignored rather than trusted.
//
// A restatement ("5 ft [1.52 m]") yields nothing of its own: the quantity
// it restates carries the bound. A range yields a between threshold after
// "between"/"entre", or when its sentence gives a consequence ("ondas de 2
// a 3 m são perigosas"); a plain range ("ondas de 2 a 3 m") describes, it
// does not bound. A bound is proposed only when its sentence states a limit
// rather than a measurement, history or a comparison: see statesLimit.
func Extract(c schema.Chunk, qs []units.Quantity) []schema.Threshold {
	var out []schema.Threshold
	for i := 0; i < len(qs); i++ {
		q := qs[i]
		if !fits(c.Text, q) || q.EquivalentOf >= 0 {
			continue
		}
		lo := i
		hi, isRange := rangeEnd(c.Text, qs, i)
		if isRange {
			i++ // the upper end is consumed with the lower one
		}
		end := hi.End
		sStart, sEnd := sentence.Around(c.Text, q.Start, end, c.Element == schema.ElementTableRow)
		bEnd := min(boundEnd(c.Text, qs, lo, i), sEnd)
		comparator, skipBefore, skipAfter := boundOf(c.Text, sStart, sEnd, q, bEnd, isRange)
		row := c.Element == schema.ElementTableRow
		switch {
		case comparator == "" && isRange && rangeStatesLimit(c.Text, sStart, sEnd, q, qs, row):
			comparator = schema.ComparatorBetween // "Waves of 2-3 m are dangerous"
		case comparator == "":
			continue
		case !statesLimit(c.Text, sStart, sEnd, q, skipBefore, qs, row):
			continue
		}
		t := schema.Threshold{
			Subject:     subjectFor(c.Text, sStart, sEnd, q.Start, bEnd, q.Dimension, skipBefore, skipAfter),
			Comparator:  comparator,
			Value:       q.SIValue,
			SIUnit:      q.SIUnit,
			Surface:     q.Surface,
			Sentence:    cleanSentence(c.Text[sStart:sEnd]),
			DocPath:     c.DocPath,
			SectionPath: slices.Clone(c.SectionPath),
			Line:        lineOf(c, q.Start),
			ContentHash: c.ContentHash,
			Lang:        c.Lang,
			Origin:      OriginRule,
		}
		if comparator == schema.ComparatorBetween {
			t.Value2 = hi.SIValue
			t.Surface = c.Text[q.Start:end]
		}
		t.Hazard = hazardIn(t.Sentence)
		out = append(out, t)
	}
	return out
}

// boundOf returns the comparator binding q (or the range q…hi), or "",
// with the number of words its phrase takes before and after the quantity.
// A phrase after the quantity is looked for from bEnd, past a restatement
// ("35 knots (about 65 km/h) or more").
func boundOf(text string, sStart, sEnd int, q units.Quantity, bEnd int, isRange bool) (cmp string, before, after int) {
	if isRange {
		if ok, n := isBetween(text, sStart, q.Start); ok {
			return schema.ComparatorBetween, n, 0
		}
		return "", 0, 0
	}
	if cmp, n := comparatorBefore(text, sStart, q.Start); cmp != "" {
		return cmp, n, 0
	}
	cmp, n := comparatorAfter(text, bEnd, sEnd)
	return cmp, 0, n
}

// restatementWindow bounds how far a restatement's closing bracket may sit
// after its last quantity: "(about 65 km/h)", "(61–66 °F, ao largo)".
const restatementWindow = 24

// boundEnd is where the quantities qs[lo..hi] end as a bound reads them:
// after hi, or after the restatement that follows ("35 knots (about 65
// km/h)", "16 and 19 °C (61–66 °F)") and its closing bracket.
func boundEnd(text string, qs []units.Quantity, lo, hi int) int {
	end := qs[hi].End
	for j := hi + 1; j < len(qs) && (qs[j].EquivalentOf == lo || qs[j].EquivalentOf == hi); j++ {
		if fits(text, qs[j]) {
			end = qs[j].End
		}
	}
	if end == qs[hi].End {
		return end
	}
	rest := text[end:min(len(text), end+restatementWindow)]
	if k := strings.IndexAny(rest, ")]"); k >= 0 && !strings.ContainsAny(rest[:k], "([\n") {
		return end + k + 1
	}
	return end
}

// rangeEnd returns the upper end of the range qs[i] opens, or qs[i] itself
// when it opens none.
func rangeEnd(text string, qs []units.Quantity, i int) (units.Quantity, bool) {
	q := qs[i]
	if q.Range == 0 || i+1 >= len(qs) || qs[i+1].Range != q.Range || !fits(text, qs[i+1]) {
		return q, false
	}
	return qs[i+1], true
}

func fits(text string, q units.Quantity) bool {
	return q.Start >= 0 && q.Start < q.End && q.End <= len(text) && text[q.Start:q.End] == q.Surface
}

// lineOf is the source line of the byte at pos in c.Text. A table row's
// text is rendered from its cells, so its lines are not the source's: the
// row's own line stands for all of it.
func lineOf(c schema.Chunk, pos int) int {
	if c.Element == schema.ElementTableRow {
		return c.LineStart
	}
	return c.LineStart + strings.Count(c.Text[:pos], "\n")
}
