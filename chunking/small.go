package chunking

import (
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// mergeSmall merges every piece under chunk.min (a fragment: "TBD", a
// sentence between two code blocks, a heading with one line under it) into
// a neighbour where the two fit the budget: the next piece of its section,
// else the previous one; where neither fits, the previous piece hands it
// its last sentences (or list items) until it reaches chunk.min. A piece
// that is a whole section on its own, or a heading with nothing under it,
// may merge with the next section's first piece (else the previous
// section's last), the merged piece keeping both sections' headings in its
// path. Table rows are never merged: a row is read as a record. Heading-only
// pieces that still stand alone are folded into a neighbour's section path
// (foldHeadings).
func (pk *packer) mergeSmall(ps []piece) []piece {
	ps = foldHeadings(ps)
	if pk.c.cfg.Min == 0 {
		return ps
	}
	pieces := map[int]int{} // pieces per section
	for _, p := range ps {
		pieces[p.sectionID]++
	}
	m := merger{pk: pk, pieces: pieces}
	var fwd []piece
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		for m.small(p) && i+1 < len(ps) && m.can(p, ps[i+1]) {
			p = m.merged(p, ps[i+1])
			i++
		}
		fwd = append(fwd, p)
	}
	var out []piece
	for _, p := range fwd {
		n := len(out)
		if n > 0 && m.small(p) && m.can(out[n-1], p) {
			out[n-1] = m.merged(out[n-1], p)
			continue
		}
		if n > 0 && m.small(p) {
			if a, b, ok := m.rebalance(out[n-1], p); ok {
				out[n-1], p = a, b
			}
		}
		out = append(out, p)
	}
	return out
}

// merger merges the pieces of one document.
type merger struct {
	pk     *packer
	pieces map[int]int // pieces per section before merging
}

func (m merger) small(p piece) bool {
	return p.el != schema.ElementTableRow && p.el != schema.ElementSectionHeading && p.size < m.pk.c.cfg.Min
}

// can reports whether adjacent pieces a and b, one of them small, may become
// one: neither is a table row or a bare heading (those are folded into a
// path before merging, never into text), they fit, and they share a section
// unless the small one is a whole section.
func (m merger) can(a, b piece) bool {
	for _, p := range []piece{a, b} {
		if p.el == schema.ElementTableRow || p.el == schema.ElementSectionHeading {
			return false
		}
	}
	if a.tab != b.tab || a.size+m.pk.c.size.Count(m.pk.doc.Text[a.end:b.start])+b.size > m.pk.c.cfg.Max {
		return false // a tab's words and the words around it are not one context
	}
	if a.sectionID == b.sectionID {
		return true
	}
	alone := func(p piece) bool { return m.small(p) && m.pieces[p.sectionID] == 1 }
	return alone(a) || alone(b)
}

// merged is a and b as one piece: the element of the larger, both section
// paths, the later section's identity (so an overlap or a merge after it
// sees the section it ends in).
func (m merger) merged(a, b piece) piece {
	p := m.pk.finish(piece{el: a.el, span: span{a.start, b.end}, sectionID: b.sectionID, group: b.group, tab: b.tab, first: a.first, last: b.last})
	p.section = joinPaths(a.section, b.section)
	return p
}

// rebalance moves the end of prose piece a (its last sentences or list
// items) into b, a small prose piece after it in its section that a cannot
// take whole: as little as makes b reach chunk.min, with a staying at or
// above it and b within the budget. ok is false when no such cut exists.
func (m merger) rebalance(a, b piece) (piece, piece, bool) {
	pk := m.pk
	if a.sectionID != b.sectionID || a.tab != b.tab || !prosy(a.el) || !prosy(b.el) || a.end > b.start {
		return a, b, false
	}
	best := -1
	for _, cut := range m.cuts(a) { // latest first
		if !pk.c.fits(pk.doc.Text[cut:b.end]) || pk.c.size.Count(pk.doc.Text[a.start:cut]) < pk.c.cfg.Min {
			break
		}
		best = cut
		if pk.c.size.Count(pk.doc.Text[cut:b.end]) >= pk.c.cfg.Min {
			break
		}
	}
	if best < 0 {
		return a, b, false
	}
	k := a.first
	for k < a.last && pk.bs[k+1].start <= best {
		k++
	}
	end := best
	for end > a.start && (pk.doc.Text[end-1] == ' ' || pk.doc.Text[end-1] == '\n' || pk.doc.Text[end-1] == '\t') {
		end--
	}
	last := a.first
	for last < a.last && pk.bs[last+1].start < end {
		last++
	}
	ra := pk.finish(piece{el: a.el, span: span{a.start, end}, sectionID: a.sectionID, group: a.group, tab: a.tab, first: a.first, last: last})
	ra.section = a.section
	rb := pk.finish(piece{el: b.el, span: span{best, b.end}, sectionID: b.sectionID, group: b.group, tab: b.tab, first: k, last: b.last})
	rb.section = joinPaths(ra.section, b.section)
	return ra, rb, true
}

// cuts are the places piece p may be cut, latest first: the starts of its
// blocks and of the sentences of its prose blocks, inside it.
func (m merger) cuts(p piece) []int {
	var out []int
	for k := p.last; k >= p.first; k-- {
		b := m.pk.bs[k]
		ss := sentence.Split(b.text)
		for j := len(ss) - 1; j >= 0; j-- {
			at := b.start + ss[j].Start
			if at > p.start && at < p.end && (j > 0 || b.split) {
				out = append(out, at)
			}
		}
		if len(ss) == 0 && b.start > p.start && b.start < p.end {
			out = append(out, b.start)
		}
	}
	return out
}

// foldHeadings leaves out every piece that is only a heading, adding the
// heading to the section path of the next piece (else the previous one): a
// heading is never a chunk of its own, and never lost.
func foldHeadings(ps []piece) []piece {
	out := make([]piece, 0, len(ps))
	var pending [][]string // the paths of headings waiting for the next piece
	for _, p := range ps {
		if p.el == schema.ElementSectionHeading {
			pending = append(pending, p.section)
			continue
		}
		for i := len(pending) - 1; i >= 0; i-- {
			p.section = joinPaths(pending[i], p.section)
		}
		pending = pending[:0]
		out = append(out, p)
	}
	if n := len(out); n > 0 {
		for _, h := range pending {
			out[n-1].section = joinPaths(out[n-1].section, h)
		}
	}
	return out
}

func prosy(el schema.Element) bool {
	return el == schema.ElementParagraph || el == schema.ElementListItem
}

// overlap starts each piece with whole trailing sentences of the previous
// piece of its section, up to chunk.overlap, while the whole stays within the
// budget. The text stays a verbatim span of the source: the start moves back.
func (c *Chunker) overlap(doc schema.Document, ps []piece) []piece {
	out := make([]piece, len(ps))
	copy(out, ps)
	for i := 1; i < len(ps); i++ {
		prev, cur := ps[i-1], ps[i]
		if prev.sectionID != cur.sectionID || prev.group != cur.group || prev.tab != cur.tab || !prosy(prev.el) || !prosy(cur.el) || prev.end > cur.start {
			continue
		}
		start := cur.start
		ss := sentence.Split(prev.text)
		for k := len(ss) - 1; k >= 0; k-- {
			from := prev.start + ss[k].Start
			if c.size.Count(doc.Text[from:prev.end]) > c.cfg.Overlap || !c.fits(doc.Text[from:cur.end]) {
				break
			}
			start = from
		}
		if start != cur.start {
			out[i].start, out[i].text = start, doc.Text[start:cur.end]
			out[i].size = c.size.Count(out[i].text)
		}
	}
	return out
}
