package thresholds

import (
	"math"

	"github.com/ocean-safety/ingest/schema"
)

// conflictTolerance is how far apart (relative) two values of the same
// subject and comparator may be and still agree: 2% absorbs rounding in
// conversions ("5 ft" is 1.524 m, a document may write 1.5 m).
const conflictTolerance = 0.02

// conflict is one subject and comparator on which documents disagree.
type conflict struct {
	subject, comparator string
	values              [][]schema.Threshold // one cluster of agreeing values each
}

// conflicts finds, in thresholds sorted by Sort, the subject–comparator
// pairs whose values fall into more than one cluster across more than one
// document. Unknown subjects are left out: two unrelated bounds that share
// no subject cannot disagree.
func conflicts(ts []schema.Threshold) []conflict {
	var out []conflict
	for i := 0; i < len(ts); {
		j := i
		for j < len(ts) && ts[j].Subject == ts[i].Subject && ts[j].Comparator == ts[i].Comparator {
			j++
		}
		group := ts[i:j]
		if ts[i].Subject != SubjectUnknown {
			if clusters := cluster(group); len(clusters) > 1 && documents(group) > 1 {
				out = append(out, conflict{ts[i].Subject, ts[i].Comparator, clusters})
			}
		}
		i = j
	}
	return out
}

// cluster splits a sorted group into clusters of values that agree with
// the cluster's first (smallest) value within conflictTolerance. Comparing
// with the first rather than the last keeps a slow drift (1.00, 1.02,
// 1.04 …) from chaining into one cluster.
func cluster(group []schema.Threshold) [][]schema.Threshold {
	var out [][]schema.Threshold
next:
	for _, t := range group {
		for k := range out {
			if agree(out[k][0], t) {
				out[k] = append(out[k], t)
				continue next
			}
		}
		out = append(out, []schema.Threshold{t})
	}
	return out
}

func agree(a, b schema.Threshold) bool {
	return near(a.Value, b.Value) && near(a.Value2, b.Value2)
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= conflictTolerance*math.Max(math.Abs(a), math.Abs(b))
}

func documents(group []schema.Threshold) int {
	seen := map[string]bool{}
	for _, t := range group {
		seen[t.DocPath] = true
	}
	return len(seen)
}
