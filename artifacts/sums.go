package artifacts

import (
	"slices"

	"github.com/ocean-safety/ingest/schema"
)

// Add adds c's counts to these.
func (t *Calls) Add(c Calls) {
	t.HeaderCalls += c.HeaderCalls
	t.EmbedCalls += c.EmbedCalls
	t.HeadersReused += c.HeadersReused
	t.VectorsReused += c.VectorsReused
	t.FromJournal += c.FromJournal
	t.Superseded += c.Superseded
}

// Merge adds the report of a part of the same run to r, as one run of both
// would have reported it: each stage's items and seconds (stages in the
// order they first appear), the documents by language source, the markup
// removed, the model servers' counts and the embedder's truncations. The
// diagnostics, skipped files and the rejects lists are the caller's: they
// follow the corpus's order, not the parts'.
func (r *Report) Merge(p Report) {
	for _, s := range p.Stages {
		if i := slices.IndexFunc(r.Stages, func(t StageStat) bool { return t.Name == s.Name }); i >= 0 {
			r.Stages[i].Items += s.Items
			r.Stages[i].Seconds += s.Seconds
			continue
		}
		r.Stages = append(r.Stages, StageStat{Name: s.Name, Items: s.Items, Seconds: s.Seconds})
	}
	r.LangFrom = addCounts(r.LangFrom, p.LangFrom)
	r.Markup = addCounts(r.Markup, p.Markup)
	if pm := p.Models; pm != nil {
		if r.Models == nil {
			r.Models = &ModelReport{}
		}
		r.Models.Headers = schema.AddStats(r.Models.Headers, pm.Headers)
		r.Models.Embedder = schema.AddStats(r.Models.Embedder, pm.Embedder)
		r.Models.Truncations = append(r.Models.Truncations, pm.Truncations...)
	}
}

func addCounts(dst, src map[string]int) map[string]int {
	if dst == nil {
		dst = map[string]int{}
	}
	for k, n := range src {
		dst[k] += n
	}
	return dst
}
