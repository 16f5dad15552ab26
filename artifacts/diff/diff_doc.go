package diff

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// addedDoc reports a document only the new snapshot has.
func addedDoc(n []schema.Chunk) DocDiff {
	return DocDiff{Path: n[0].DocPath, Status: DocAdded, Title: n[0].DocTitle, NewVersion: n[0].DocVersion,
		ChunksAfter: len(n), Thresholds: thresholdChanges(nil, thresholdsOf(n)),
		ChunkIDsAdded: idsNotIn(n, nil), ChunkIDsRemoved: []string{}}
}

// removedDoc reports a document only the old snapshot has.
func removedDoc(o []schema.Chunk) DocDiff {
	return DocDiff{Path: o[0].DocPath, Status: DocRemoved, Title: o[0].DocTitle, OldVersion: o[0].DocVersion,
		ChunksBefore: len(o), Thresholds: thresholdChanges(thresholdsOf(o), nil),
		ChunkIDsAdded: []string{}, ChunkIDsRemoved: idsNotIn(o, nil)}
}

// compareDoc compares the two versions of one document, and reports false
// when nothing the report covers differs. A document whose source text is
// unchanged can still differ (a new chunk budget, header writer or threshold
// rule): it is "regenerated", not "changed".
func compareDoc(o, n []schema.Chunk) (DocDiff, bool) {
	d := DocDiff{Path: n[0].DocPath, Status: DocChanged, Title: n[0].DocTitle,
		OldVersion: o[0].DocVersion, NewVersion: n[0].DocVersion, ChunksBefore: len(o), ChunksAfter: len(n)}
	d.Fields = docFieldChanges(o[0], n[0])
	d.Chunks = chunkChanges(o, n)
	d.Thresholds = thresholdChanges(thresholdsOf(o), thresholdsOf(n))
	d.ChunkIDsAdded, d.ChunkIDsRemoved = idsNotIn(n, o), idsNotIn(o, n)
	if o[0].DocVersion == n[0].DocVersion {
		if len(d.Fields) == 0 && len(d.Chunks) == 0 && len(d.Thresholds) == 0 {
			return DocDiff{}, false
		}
		d.Status = DocRegenerated
	}
	return d, true
}

// chunkChanges aligns the two versions of a document and lists what differs,
// in document order. Chunks are matched by content hash and heading path
// along the longest common subsequence, so a paragraph inserted near the top
// does not make every chunk below it "moved": only a chunk whose text left
// the common order, or now sits under another heading path, is moved. What is left on
// both sides of the same gap between matched chunks pairs up as changed
// text, preferring the same heading path; the rest is added or removed.
func chunkChanges(o, n []schema.Chunk) []ChunkChange {
	kept := commonSubsequence(placesOf(o), placesOf(n))
	usedOld, usedNew := make([]bool, len(o)), make([]bool, len(n))
	for _, p := range kept {
		usedOld[p.i], usedNew[p.j] = true, true
	}
	moved := pairByHash(hashesOf(o), hashesOf(n), usedOld, usedNew)
	edited := pairInGaps(o, n, kept, usedOld, usedNew)

	var out []positioned
	for _, p := range kept {
		if c, ok := keptChange(o[p.i], n[p.j], false); ok {
			out = append(out, positioned{c, p.j, 1, 0})
		}
	}
	for _, p := range moved {
		c, _ := keptChange(o[p.i], n[p.j], true)
		out = append(out, positioned{c, p.j, 1, 0})
	}
	for _, p := range edited {
		os, ns := sideOf(o[p.i]), sideOf(n[p.j])
		os.Excerpt, ns.Excerpt = excerptPair(o[p.i].Text, n[p.j].Text)
		out = append(out, positioned{ChunkChange{Change: ChangeChanged, SectionPath: n[p.j].SectionPath, Old: os, New: ns}, p.j, 1, 0})
	}
	for i := range o {
		if !usedOld[i] {
			out = append(out, positioned{ChunkChange{Change: ChangeRemoved, SectionPath: o[i].SectionPath, Old: sideOf(o[i])},
				gapStart(kept, i), 0, i})
		}
	}
	for j := range n {
		if !usedNew[j] {
			out = append(out, positioned{ChunkChange{Change: ChangeAdded, SectionPath: n[j].SectionPath, New: sideOf(n[j])}, j, 1, 0})
		}
	}
	// A removed chunk sorts at the start of its gap, before what replaced it,
	// as in a unified diff.
	slices.SortFunc(out, func(x, y positioned) int {
		return cmp.Or(cmp.Compare(x.pos, y.pos), cmp.Compare(x.phase, y.phase), cmp.Compare(x.old, y.old))
	})
	changes := make([]ChunkChange, len(out))
	for i, p := range out {
		changes[i] = p.ChunkChange
	}
	return changes
}

// positioned is a change with its place in the new document.
type positioned struct {
	ChunkChange
	pos, phase, old int
}

// keptChange reports a chunk whose text both versions have: moved if asked
// or if its heading path changed, relabelled if only its header or fields
// did, nothing otherwise.
func keptChange(o, n schema.Chunk, moved bool) (ChunkChange, bool) {
	moved = moved || !slices.Equal(o.SectionPath, n.SectionPath)
	fields := fieldChanges(o, n)
	c := ChunkChange{Change: ChangeMoved, SectionPath: n.SectionPath, Fields: fields}
	switch {
	case moved:
		c.Old, c.New = sideOf(o), sideOf(n)
	case len(fields) > 0:
		c.Change = ChangeRelabelled
		c.New = sideOf(n)
	default:
		return ChunkChange{}, false
	}
	return c, true
}

// docFieldChanges lists the document's own columns that differ, read from
// its first chunk: most follow from its header lines, source_label from the
// config.
func docFieldChanges(o, n schema.Chunk) []FieldChange {
	pairs := []FieldChange{
		{"title", o.DocTitle, n.DocTitle},
		{"source_url", o.SourceURL, n.SourceURL},
		{"source_label", o.SourceLabel, n.SourceLabel},
		{"tenant_id", o.TenantID, n.TenantID},
		{"kind", string(o.Kind), string(n.Kind)},
		{"lang", string(o.Lang), string(n.Lang)},
		{"beach_id", o.BeachID, n.BeachID},
	}
	var out []FieldChange
	for _, p := range pairs {
		if p.Old != p.New {
			out = append(out, p)
		}
	}
	return out
}

// fieldChanges lists what the enrich stage wrote differently for the same text.
func fieldChanges(o, n schema.Chunk) []FieldChange {
	pairs := []FieldChange{
		{"context_header", o.ContextHeader, n.ContextHeader},
		{"header_source", o.HeaderSource, n.HeaderSource},
		{"hazard", o.Fields.Hazard, n.Fields.Hazard},
		{"place", o.Fields.Place, n.Fields.Place},
		{"season", o.Fields.Season, n.Fields.Season},
		{"unsourced_claim", o.Fields.UnsourcedClaim, n.Fields.UnsourcedClaim},
	}
	var out []FieldChange
	for _, p := range pairs {
		if p.Old != p.New {
			p.Old, p.New = excerpt(p.Old), excerpt(p.New)
			out = append(out, p)
		}
	}
	return out
}

// idsNotIn lists the chunk ids of cs that others lacks, in cs's order;
// never nil, so the JSON has a list to range over.
func idsNotIn(cs, others []schema.Chunk) []string {
	seen := make(map[string]bool, len(others))
	for _, c := range others {
		seen[c.ChunkID] = true
	}
	out := []string{}
	for _, c := range cs {
		if !seen[c.ChunkID] {
			out = append(out, c.ChunkID)
		}
	}
	return out
}

func sideOf(c schema.Chunk) *ChunkSide {
	return &ChunkSide{ChunkID: c.ChunkID, Order: c.Order, SectionPath: c.SectionPath, ContentHash: c.ContentHash, Excerpt: excerpt(c.Text)}
}

// placesOf keys each chunk by its text and heading path: the same text under
// another heading is not kept in place but moved.
func placesOf(cs []schema.Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ContentHash + "\x00" + strings.Join(c.SectionPath, "\x1f")
	}
	return out
}

func hashesOf(cs []schema.Chunk) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ContentHash
	}
	return out
}

func thresholdsOf(cs []schema.Chunk) []schema.Threshold {
	var out []schema.Threshold
	for _, c := range cs {
		out = append(out, c.Thresholds...)
	}
	return out
}
