package chunking

import (
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/sentence"
)

// piece is a chunk before its identity is filled in.
type piece struct {
	el schema.Element
	span
	text      string
	section   []string
	sectionID int
	group     int  // the admonition it is in (0: none)
	oversize  bool // over budget, and cannot be cut: one sentence, a code block, a table row
	cells     []schema.Cell
}

// group turns blocks into pieces by the document's kind. Prose and structured
// documents merge neighbouring paragraphs (or list items) of one section up to
// the budget; safety rules and lore paragraphs stand alone. Anything over the
// budget is cut at sentence ends.
func (c *Chunker) group(doc schema.Document, blocks []block) []piece {
	merge := doc.Kind == schema.KindProse || doc.Kind == schema.KindStructured
	var out []piece
	for i := 0; i < len(blocks); {
		b := blocks[i]
		switch {
		case !b.split:
			out = append(out, piece{el: b.el, span: b.span, text: b.text, section: b.section, sectionID: b.sectionID, group: b.group, oversize: !c.fits(b.text), cells: b.cells})
			i++
		case !c.fits(b.text):
			out = append(out, c.splitSentences(doc, b)...)
			i++
		default:
			j, end := i+1, b.end
			for merge && j < len(blocks) && c.joins(doc, b, blocks[j]) {
				end = blocks[j].end
				j++
			}
			out = append(out, c.cut(doc, b, b.start, end))
			i = j
		}
	}
	if !merge {
		return out
	}
	out = c.mergeSmall(doc, out)
	if c.cfg.Overlap > 0 {
		out = c.overlap(doc, out)
	}
	return out
}

// joins reports whether block n can join a run that started with first.
func (c *Chunker) joins(doc schema.Document, first, n block) bool {
	return n.split && n.sectionID == first.sectionID && n.el == first.el && n.list == first.list && n.group == first.group && c.fits(doc.Text[first.start:n.end])
}

func (c *Chunker) fits(s string) bool { return c.size.Count(s) <= c.cfg.Max }

// cut is the piece of b's section spanning [start, end) of the document.
func (c *Chunker) cut(doc schema.Document, b block, start, end int) piece {
	t := doc.Text[start:end]
	return piece{el: b.el, span: span{start, end}, text: t, section: b.section, sectionID: b.sectionID, group: b.group, oversize: !c.fits(t)}
}

// splitSentences packs b's sentences greedily up to the budget. A sentence
// longer than the budget is a piece of its own, marked oversize: it is never cut.
func (c *Chunker) splitSentences(doc schema.Document, b block) []piece {
	var out []piece
	ss := sentence.Split(b.text)
	for i := 0; i < len(ss); {
		j := i + 1
		for j < len(ss) && c.fits(b.text[ss[i].Start:ss[j].End]) {
			j++
		}
		out = append(out, c.cut(doc, b, b.start+ss[i].Start, b.start+ss[j-1].End))
		i = j
	}
	return out
}

// mergeSmall merges a piece under chunk.min into its next neighbour in the
// same section (a paragraph into the list it introduces, say) when the two
// fit the budget; the merged piece takes the larger part's element.
func (c *Chunker) mergeSmall(doc schema.Document, ps []piece) []piece {
	if c.cfg.Min == 0 {
		return ps
	}
	var out []piece
	for _, p := range ps {
		if n := len(out); n > 0 && c.canMerge(doc, out[n-1], p) {
			out[n-1] = c.merged(doc, out[n-1], p)
			continue
		}
		out = append(out, p)
	}
	return out
}

func (c *Chunker) canMerge(doc schema.Document, a, b piece) bool {
	small := c.size.Count(a.text) < c.cfg.Min || c.size.Count(b.text) < c.cfg.Min
	return small && a.sectionID == b.sectionID && a.group == b.group && prosy(a.el) && prosy(b.el) && c.fits(doc.Text[a.start:b.end])
}

func (c *Chunker) merged(doc schema.Document, a, b piece) piece {
	el := a.el
	if c.size.Count(b.text) > c.size.Count(a.text) {
		el = b.el
	}
	m := c.cut(doc, block{el: el, section: a.section, sectionID: a.sectionID, group: a.group}, a.start, b.end)
	return m
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
		if prev.sectionID != cur.sectionID || prev.group != cur.group || !prosy(prev.el) || !prosy(cur.el) || prev.end > cur.start {
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
			out[i] = c.cut(doc, block{el: cur.el, section: cur.section, sectionID: cur.sectionID, group: cur.group}, start, cur.end)
		}
	}
	return out
}
