package diagnostics

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// MaxSampled is how many diagnostics of one code report.json shows, the
// first in the run's order: as many as the command prints of a run's errors
// and warnings, enough to tell one folder's problem from the whole corpus's.
// It keeps the report small whatever the corpus: with every code ingest has
// (about 25, counting table-in-<kind> once a kind) and entries of up to
// 2 KB (a long path and message), the sample stays under 1 MB, where 1,000
// a code made 0.5 MB of one code alone at 100,000 documents.
// diagnostics.jsonl holds every one.
const MaxSampled = 20

// Count counts the diagnostics of one code and severity.
type Count struct {
	Code     string          `json:"code"`
	Severity schema.Severity `json:"severity"`
	Count    int             `json:"count"`
	Ignored  int             `json:"ignored,omitempty"` // of Count, accepted by the run's config
}

// Digest is what report.json says of a run's diagnostics, added one at a
// time in the run's order: the first MaxSampled of each code, and the count
// of every code and severity.
type Digest struct {
	sample  []schema.Diagnostic
	perCode map[string]int
	counts  map[[2]string]*Count
	total   int
}

// Add counts d, and samples it while its code has fewer than MaxSampled.
func (g *Digest) Add(d schema.Diagnostic) {
	if g.counts == nil {
		g.perCode, g.counts = map[string]int{}, map[[2]string]*Count{}
	}
	if g.perCode[d.Code] < MaxSampled {
		g.perCode[d.Code]++
		g.sample = append(g.sample, d)
	}
	k := [2]string{d.Code, string(d.Severity)}
	c := g.counts[k]
	if c == nil {
		c = &Count{Code: d.Code, Severity: d.Severity}
		g.counts[k] = c
	}
	c.Count++
	if d.Ignored {
		c.Ignored++
	}
	g.total++
}

// Len is how many diagnostics were added.
func (g *Digest) Len() int { return g.total }

// Sample is the first MaxSampled diagnostics of each code, in the order
// they were added (never nil: the report writes [] for none).
func (g *Digest) Sample() []schema.Diagnostic {
	return append([]schema.Diagnostic{}, g.sample...)
}

// Counts is every code and severity's count, by code, then severity (never
// nil).
func (g *Digest) Counts() []Count {
	out := make([]Count, 0, len(g.counts))
	for _, c := range g.counts {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Count) int {
		return cmp.Or(strings.Compare(a.Code, b.Code), strings.Compare(string(a.Severity), string(b.Severity)))
	})
	return out
}
