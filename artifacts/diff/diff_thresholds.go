package diff

import (
	"cmp"
	"math"
	"slices"

	"github.com/ocean-safety/ingest/schema"
)

// thresholdChanges compares one document's thresholds before and after.
// They match by subject and comparator; within such a group, equal SI
// values cancel out, and what is left pairs up in value order as a changed
// value, so "above 1.5 m" becoming "above 2 m" is one change, not a removal
// and an addition. The wording (surface, sentence, line) may change freely.
func thresholdChanges(o, n []schema.Threshold) []ThresholdChange {
	byKey := func(ts []schema.Threshold) map[[2]string][]schema.Threshold {
		m := map[[2]string][]schema.Threshold{}
		for _, t := range ts {
			k := [2]string{t.Subject, t.Comparator}
			m[k] = append(m[k], t)
		}
		return m
	}
	om, nm := byKey(o), byKey(n)
	var keys [][2]string
	for _, m := range []map[[2]string][]schema.Threshold{om, nm} {
		for k := range m {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(x, y [2]string) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	var out []ThresholdChange
	for _, k := range keys {
		out = append(out, groupChanges(k[0], k[1], om[k], nm[k])...)
	}
	return out
}

// groupChanges compares the thresholds of one subject and comparator.
func groupChanges(subject, comparator string, o, n []schema.Threshold) []ThresholdChange {
	o, n = slices.Clone(o), slices.Clone(n)
	slices.SortStableFunc(o, compareThreshold)
	slices.SortStableFunc(n, compareThreshold)
	var gone, come []schema.Threshold
	i, j := 0, 0
	for i < len(o) && j < len(n) {
		switch c := compareThreshold(o[i], n[j]); {
		case c == 0:
			i++
			j++
		case c < 0:
			gone = append(gone, o[i])
			i++
		default:
			come = append(come, n[j])
			j++
		}
	}
	gone, come = append(gone, o[i:]...), append(come, n[j:]...)

	var out []ThresholdChange
	change := func(kind ChangeKind, before, after *schema.Threshold) {
		out = append(out, ThresholdChange{Change: kind, Subject: subject, Comparator: comparator,
			Old: thresholdSide(before), New: thresholdSide(after)})
	}
	for k := 0; k < min(len(gone), len(come)); k++ {
		change(ChangeChanged, &gone[k], &come[k])
	}
	for k := len(come); k < len(gone); k++ {
		change(ChangeRemoved, &gone[k], nil)
	}
	for k := len(gone); k < len(come); k++ {
		change(ChangeAdded, nil, &come[k])
	}
	return out
}

// compareThreshold orders thresholds by SI unit and value; values a rounding
// error apart are equal.
func compareThreshold(a, b schema.Threshold) int {
	if c := cmp.Compare(a.SIUnit, b.SIUnit); c != 0 {
		return c
	}
	if !sameValue(a.Value, b.Value) {
		return cmp.Compare(a.Value, b.Value)
	}
	if !sameValue(a.Value2, b.Value2) {
		return cmp.Compare(a.Value2, b.Value2)
	}
	return 0
}

// sameValue treats SI values within a relative 1e-9 as equal: unit
// conversion is floating point, and a change of the last bit is not a change
// the corpus made.
func sameValue(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*max(math.Abs(a), math.Abs(b), 1)
}

func thresholdSide(t *schema.Threshold) *ThresholdSide {
	if t == nil {
		return nil
	}
	return &ThresholdSide{Value: t.Value, Value2: t.Value2, SIUnit: t.SIUnit, Surface: t.Surface, Line: t.Line,
		Sentence: excerpt(t.Sentence)}
}
