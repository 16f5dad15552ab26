package thresholds

import "math"

// conflictTolerance is how far apart (relative) two values of the same
// subject and comparator may be and still agree: 2% absorbs rounding in
// conversions ("5 ft" is 1.524 m, a document may write 1.5 m).
const conflictTolerance = 0.02

// cluster splits a sorted group into clusters of values that agree with
// the cluster's first (smallest) value within conflictTolerance. Comparing
// with the first rather than the last keeps a slow drift (1.00, 1.02,
// 1.04 …) from chaining into one cluster.
func cluster(group []row) [][]row {
	var out [][]row
next:
	for _, r := range group {
		for k := range out {
			if agree(out[k][0].key, r.key) {
				out[k] = append(out[k], r)
				continue next
			}
		}
		out = append(out, []row{r})
	}
	return out
}

func agree(a, b valueKey) bool {
	return near(a.value, b.value) && near(a.value2, b.value2)
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= conflictTolerance*math.Max(math.Abs(a), math.Abs(b))
}
