package chunking

import (
	"slices"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// span is a half-open byte range of the view.
type span struct{ start, end int }

// block is a Block as the packer works on it.
type block struct {
	el schema.Element
	span
	text      string
	section   []string
	sectionID int
	split     bool
	table     int
	list      int
	item      int
	group     int
	tab       int
	tabStart  bool
	quote     bool
	cells     []schema.Cell
}

// packBlocks is the packer's copy of a body's blocks.
func packBlocks(bs []Block) []block {
	out := make([]block, len(bs))
	for i, b := range bs {
		out[i] = block{el: b.Element, span: span{b.Start, b.End}, text: b.Text, section: b.Section, sectionID: b.SectionID, split: b.Split,
			table: b.Table, list: b.List, item: b.Item, group: b.Group, tab: b.Tab, tabStart: b.TabStart, quote: b.Quote, cells: b.Cells}
	}
	return out
}

// piece is a chunk before its identity is filled in.
type piece struct {
	el schema.Element
	span
	text      string
	section   []string
	sectionID int
	group     int  // the admonition it is in (0: none)
	tab       int  // the content tab it is in (0: none)
	oversize  bool // over budget, and cannot be cut: one sentence, a code block, a table row
	cells     []schema.Cell
	lead      span // the lead-in its first block has in another piece (empty: none)
	size      int  // of text, in the budget's unit

	first, last int // the blocks it spans, as indices
}

// group turns blocks into pieces by the cut of the document's kind
// (schema.KindRules.Cut). A section cut packs the blocks of a section up to
// the budget: a paragraph with the paragraphs after it, a list item with
// the rest of its list, a lead-in with what it introduces; then pieces under
// chunk.min merge with a neighbour. A block cut keeps each block (a safety
// rule, a lore paragraph) alone, but a lead-in joins its first block and
// every block carries it. A table row is always a piece of its own;
// anything over the budget is cut at sentence ends.
func (c *Chunker) group(doc schema.Document, blocks []block) []piece {
	cut := doc.Kind.Rules().Cut
	intro := leadIns(cut, blocks)
	pk := packer{c: c, doc: doc, bs: blocks, intro: intro}
	var out []piece
	if cut == schema.CutSection {
		out = pk.mergeSmall(pk.pack())
		if c.cfg.Overlap > 0 {
			out = c.overlap(doc, out)
		}
	} else {
		out = foldHeadings(pk.units())
	}
	leads := map[int]span{} // a lead-in's span, read once for all the rows or parts that carry it
	for i := range out {
		p := &out[i]
		if l := intro[p.first]; l >= 0 && blocks[l].end <= p.start {
			sp, ok := leads[l]
			if !ok {
				sp = leadInSpan(blocks[l])
				leads[l] = sp
			}
			p.lead = sp
		}
	}
	return out
}

// packer packs one document's blocks.
type packer struct {
	c     *Chunker
	doc   schema.Document
	bs    []block
	intro []int

	out  []piece
	cur  piece
	open bool // cur is being filled
}

// pack packs a section-cut document's blocks greedily: each block joins the open
// piece when it may (joins) and the two fit; a lead-in that no longer fits
// with what it introduces leaves its piece to start the next one with it; a
// piece under chunk.min is filled with the sentences of the next block that
// fit.
func (pk *packer) pack() []piece {
	for i := 0; i < len(pk.bs); i++ {
		b := pk.bs[i]
		if b.table != 0 {
			pk.flush()
			pk.out = append(pk.out, pk.piece(i, b.start, b.end))
			continue
		}
		if pk.open && pk.joins(i) {
			// A size is the sum of its parts' (spans start and end at white
			// space): the open piece is counted once, not again per block.
			if grown := pk.cur.size + pk.c.size.Count(pk.doc.Text[pk.cur.end:b.end]); grown <= pk.c.cfg.Max {
				pk.cur.end, pk.cur.last, pk.cur.size = b.end, i, grown
				continue
			}
			if l := pk.intro[i]; l == pk.cur.last && pk.cur.first < l && pk.c.fits(pk.doc.Text[pk.bs[l].start:b.end]) {
				pk.restartAt(l, i)
				continue
			}
			if l := pk.intro[i]; l == pk.cur.last && !b.split && !pk.c.fits(b.text) && pk.small(pk.bs[l]) {
				// Code over the budget is kept whole anyway: a short lead-in
				// ("OpenTelemetry", "The function should look like this:")
				// goes in with it rather than standing alone.
				if pk.cur.first < l {
					pk.restartAt(l, i)
				} else {
					pk.cur.end, pk.cur.last = b.end, i
					pk.cur = pk.finish(pk.cur)
				}
				pk.flush()
				continue
			}
			if b.split && pk.cur.size < pk.c.cfg.Min {
				if cut, next := pk.fill(b, pk.cur.start); cut > b.start {
					pk.cur.end, pk.cur.last = cut, i
					pk.flush()
					if next < b.end {
						pk.begin(i, next)
					}
					continue
				}
			}
		}
		pk.flush()
		pk.begin(i, b.start)
	}
	pk.flush()
	return pk.out
}

// restartAt closes the open piece before its block l, a lead-in, and opens
// a piece from l to block i, what it introduces.
func (pk *packer) restartAt(l, i int) {
	head := pk.cur
	head.end, head.last = pk.bs[l-1].end, l-1
	pk.out = append(pk.out, pk.finish(head))
	pk.cur = pk.piece(l, pk.bs[l].start, pk.bs[i].end)
	pk.cur.last = i
	pk.cur = pk.finish(pk.cur)
}

// small reports whether block b is under chunk.min.
func (pk *packer) small(b block) bool { return pk.c.size.Count(b.text) < pk.c.cfg.Min }

// joins reports whether block i may join the open piece: a block it
// introduces or that continues what it introduces, the next item of its
// list (or the code in it), or a paragraph after a paragraph of the same
// section.
func (pk *packer) joins(i int) bool {
	a, b := pk.bs[pk.cur.last], pk.bs[i]
	if l := pk.intro[i]; l >= pk.cur.first && l <= pk.cur.last {
		return true
	}
	if a.sectionID != b.sectionID || a.group != b.group || a.tab != b.tab {
		return false
	}
	switch {
	case b.list != 0 && b.list == a.list:
		return true
	case b.el == schema.ElementParagraph && a.el == schema.ElementParagraph && a.list == 0:
		return true
	}
	return false
}

// begin opens a piece at block i from offset from (its start, or a
// sentence start when the block's first sentences went to the piece
// before). A splittable block over the budget is cut at sentence ends: every
// part but the last is a piece, and the last stays open.
func (pk *packer) begin(i, from int) {
	b := pk.bs[i]
	if !b.split || pk.c.fits(pk.doc.Text[from:b.end]) {
		pk.cur, pk.open = pk.piece(i, from, b.end), true
		return
	}
	parts := pk.c.sentenceRuns(pk.doc.Text, from, b.end)
	for _, r := range parts[:len(parts)-1] {
		pk.out = append(pk.out, pk.piece(i, r.start, r.end))
	}
	last := parts[len(parts)-1]
	pk.cur, pk.open = pk.piece(i, last.start, last.end), true
}

// fill is where the open piece, which starts at from, can end inside
// block b: after the last of b's sentences that fit with it (b.start when
// none does), and where the next sentence starts.
func (pk *packer) fill(b block, from int) (cut, next int) {
	cut, next = b.start, b.start
	for _, s := range sentence.Split(b.text) {
		end := b.start + s.End
		if !pk.c.fits(pk.doc.Text[from:end]) {
			return cut, b.start + s.Start
		}
		cut, next = end, b.end
	}
	return cut, next
}

func (pk *packer) flush() {
	if pk.open {
		pk.out = append(pk.out, pk.finish(pk.cur))
		pk.open = false
	}
}

// piece is a piece of block i's section spanning [start, end).
func (pk *packer) piece(i, start, end int) piece {
	b := pk.bs[i]
	return pk.finish(piece{el: b.el, span: span{start, end}, sectionID: b.sectionID, group: b.group, tab: b.tab, cells: b.cells, first: i, last: i})
}

// finish fills a piece's text, section path, element and oversize mark
// from the blocks it spans: the element of the largest part (a lead-in and
// its code are code), the section paths of its blocks joined.
func (pk *packer) finish(p piece) piece {
	p.text = pk.doc.Text[p.start:p.end]
	if b := pk.bs[p.first]; b.table != 0 {
		p.text = b.text // a row's rendered form: "Header: value; Header: value"
	}
	p.section = pk.bs[p.first].section
	if p.first == p.last {
		p.el = pk.bs[p.first].el
	} else {
		var size [8]int // bytes per element, by its place in schema.Elements
		for _, b := range pk.bs[p.first : p.last+1] {
			p.section = joinPaths(p.section, b.section)
			if b.el != schema.ElementSectionHeading { // a folded heading is the path's, not the text's
				size[slices.Index(schema.Elements, b.el)] += min(b.end, p.end) - max(b.start, p.start)
			}
		}
		best := 0
		for k := range schema.Elements {
			if size[k] > size[best] {
				best = k
			}
		}
		p.el = schema.Elements[best]
	}
	p.size = pk.c.size.Count(p.text)
	p.oversize = p.size > pk.c.cfg.Max
	return p
}

// units cuts a block-cut document (a safety rule, a lore paragraph): one
// paragraph, list item or table row a piece, a rule over the budget cut at sentence ends. A
// lead-in joins the first rule it introduces where the two fit; the others
// carry it.
func (pk *packer) units() []piece {
	for i := 0; i < len(pk.bs); i++ {
		b := pk.bs[i]
		if i+1 < len(pk.bs) && pk.intro[i+1] == i && pk.bs[i+1].table == 0 && pk.c.fits(pk.doc.Text[b.start:pk.bs[i+1].end]) {
			p := pk.piece(i, b.start, pk.bs[i+1].end)
			p.last = i + 1
			pk.out = append(pk.out, pk.finish(p))
			i++
			continue
		}
		pk.begin(i, b.start)
		pk.flush()
	}
	return pk.out
}

// joinPaths is the section path of a piece that runs from a section into
// another: a's headings, then those of b that a does not hold, in order
// (["Setup"] and ["Setup", "Traces"] make ["Setup", "Traces"]; two
// siblings, ["Logs"] and ["Traces"], make ["Logs", "Traces"]).
func joinPaths(a, b []string) []string {
	out := a
	for _, h := range b {
		if !slices.Contains(a, h) {
			out = append(slices.Clip(out), h)
		}
	}
	return out
}

func (c *Chunker) fits(s string) bool { return c.size.Count(s) <= c.cfg.Max }

// sentenceRuns packs the sentences of text[start:end] greedily up to the
// budget. A sentence longer than the budget is a run of its own: it is never
// cut.
func (c *Chunker) sentenceRuns(text string, start, end int) []span {
	var out []span
	ss := sentence.Split(text[start:end])
	for i := 0; i < len(ss); {
		j := i + 1
		for j < len(ss) && c.fits(text[start+ss[i].Start:start+ss[j].End]) {
			j++
		}
		out = append(out, span{start + ss[i].Start, start + ss[j-1].End})
		i = j
	}
	if len(out) == 0 {
		out = append(out, span{start, end})
	}
	return out
}
