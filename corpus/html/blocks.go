package html

import (
	"fmt"
	"strings"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/schema"
)

// layout is what the walker has made of the page so far: the blocks placed
// and the one being read, the open lists, headings, admonitions and table.
// A block is the words of one element read whole (walker.agg: a list item,
// a heading, code, a quote, a caption, a table cell) or, outside those, a
// run of text between two block boundaries: a paragraph.
type layout struct {
	out      []chunking.Block
	cur      pending
	agg      int  // the stack index of the element whose words cur is; -1: none
	itemCode int  // the stack index of code inside the item agg, a block of its own; -1: none
	br       bool // the last thing read in a paragraph was a <br>: a second ends it
	counted  int  // blocks and headings, for limits.max_blocks
	worded   int  // blocks that say something (not an icon alone)

	frames         []listFrame
	lists, items   int // numbered as read
	list           int // the list top-level items belong to (0: none)
	itemList, item int // the item agg's
	lastDT         bool

	heads   []headingMark
	section int
	titled  bool // the first h1, before any block, was read as the page's title
	// contentStart is where the content starts: after that title.
	contentStart int
	first        string // the page's first heading

	notes    []chunking.Region
	noteOpen []int

	tables []int // their lines
	table  *tableState
}

// pending is the block being read.
type pending struct {
	open         bool
	el           schema.Element
	start, end   int // the view's span of its words; start < 0: none yet
	split, quote bool
	list, item   int
	group        int
	level        int  // a heading's
	cell         bool // a table cell's words: not a block of their own
}

type listFrame struct {
	at      int // the list's stack index
	ordered bool
	dl      bool
	next    int  // the number of its next item
	top     bool // a list of the page, not one inside an item
}

type headingMark struct {
	level      int
	text       string
	start, end int
	covered    bool
}

func (w *walker) begin(p pending) {
	p.open, p.start, p.end = true, -1, -1
	if n := len(w.noteOpen); n > 0 {
		p.group = w.noteOpen[n-1] + 1
	}
	w.cur = p
}

// extend adds the view's span [first, last) to the block being read, or
// starts a paragraph with it.
func (w *walker) extend(first, last int) {
	if !w.cur.open {
		if len(w.frames) == 0 {
			w.list = 0 // an item without a list ended with the text after it
		}
		w.begin(pending{el: schema.ElementParagraph, split: true})
	}
	if w.cur.start < 0 {
		w.cur.start = first
	}
	w.cur.end = max(w.cur.end, last)
	w.br = false
}

// flush places the block being read, if it holds words.
func (w *walker) flush() {
	c := w.cur
	w.cur, w.br = pending{}, false
	if !c.open || c.cell || c.el == schema.ElementSectionHeading || c.start < 0 {
		return
	}
	if tb := w.table; tb != nil && len(tb.cells) > 0 {
		// Words between the cells of a row (a browser moves them before
		// the table): the cells read so far are a row placed first, so
		// blocks stay in the order of the page.
		w.closeRow()
	}
	w.place(chunking.Block{Element: c.el, Start: c.start, End: c.end, Text: string(w.v.b[c.start:c.end]), Split: c.split,
		List: c.list, Item: c.item, Group: c.group, Quote: c.quote})
}

// place files b under the open headings.
func (w *walker) place(b chunking.Block) {
	b.Section = make([]string, len(w.heads))
	for i := range w.heads {
		b.Section[i] = w.heads[i].text
		w.heads[i].covered = true
	}
	b.SectionID = w.section
	w.out = append(w.out, b)
	if chunking.HasWords(b.Text) {
		w.worded++
	}
	w.count(b.Start)
}

func (w *walker) count(at int) {
	if w.counted++; w.counted > w.limits.MaxBlocks {
		w.refuse(w.v.origin[at], "too-many-blocks", fmt.Sprintf("over limits.max_blocks (%d) paragraphs, items, headings and rows; split the document, or raise the limit", w.limits.MaxBlocks))
	}
}

// closeBlock ends the block of the element that just closed.
func (w *walker) closeBlock() {
	if w.cur.el == schema.ElementSectionHeading && w.cur.open {
		w.closeHeading()
	} else {
		w.flush()
	}
	w.agg = -1
}

// openHeading starts a heading, which shows its level as a Markdown
// heading does ("## "), where its tag leaves room: a chunk that holds a
// short section's heading reads it as one. The marker is no part of the
// heading's text.
func (w *walker) openHeading(i int, t token) bool {
	if w.agg >= 0 {
		return false // inside an item, a quote or a cell: its words
	}
	w.agg = i
	w.stack[i].roles |= roleBlock
	level := headings[t.tag]
	w.begin(pending{el: schema.ElementSectionHeading, level: level})
	w.v.synth(strings.Repeat("#", level)+" ", t.start, t.end)
	return true
}

// closeHeading opens the section of the heading just read. The first h1,
// before any heading or words (an icon is none), is the page's title, as
// a Markdown page's "# Title" line: not a section of its own.
func (w *walker) closeHeading() {
	c := w.cur
	w.cur = pending{}
	text := w.plain(c.start, c.end)
	if text == "" {
		return
	}
	if w.first == "" {
		w.first = text
	}
	if c.level == 1 && !w.titled && w.worded == 0 && w.section == 0 {
		w.titled = true
		w.out = w.out[:0] // an icon above the title: nothing before the title is chunked
		w.meta.h1.set(text, w.line(w.v.origin[c.start]))
		w.contentStart = w.v.origin[c.end-1] + 1
		return
	}
	w.closeHeadings(c.level)
	w.heads = append(w.heads, headingMark{level: c.level, text: text, start: c.start, end: c.end})
	w.section++
	w.count(c.start)
}

// closeHeadings closes the headings at level and deeper. One that has
// nothing under it becomes a section_heading block, so no heading is lost.
func (w *walker) closeHeadings(level int) {
	for n := len(w.heads); n > 0 && w.heads[n-1].level >= level; n = len(w.heads) {
		h := w.heads[n-1]
		if !h.covered {
			w.place(chunking.Block{Element: schema.ElementSectionHeading, Start: h.start, End: h.end, Text: string(w.v.b[h.start:h.end])})
		}
		w.heads = w.heads[:n-1]
	}
}

func (w *walker) openCode(i int) {
	w.stack[i].roles |= roleCode
	w.code++
	switch {
	case w.agg < 0:
		w.agg = i
		w.stack[i].roles |= roleBlock
		w.begin(pending{el: schema.ElementCodeBlock})
	case w.cur.el == schema.ElementListItem && w.itemCode < 0:
		// A step's command: code of its own, whole, so that sentence
		// splitting never cuts through it; it keeps its item, so the packer
		// keeps it with the step's words.
		w.flush()
		w.itemCode = i
		w.stack[i].roles |= roleItemCode
		w.begin(pending{el: schema.ElementCodeBlock, list: w.itemList, item: w.item})
	}
}

func (w *walker) closeItemCode() {
	w.flush()
	w.itemCode = -1
	w.begin(pending{el: schema.ElementListItem, split: true, list: w.itemList, item: w.item})
}

func (w *walker) openNote(i int, kind string) {
	w.stack[i].roles |= roleNote
	w.notes = append(w.notes, chunking.Region{Kind: kind, Start: w.v.w, End: w.v.w})
	w.noteOpen = append(w.noteOpen, len(w.notes)-1)
}

func (w *walker) closeNote() {
	k := w.noteOpen[len(w.noteOpen)-1]
	w.noteOpen = w.noteOpen[:len(w.noteOpen)-1]
	w.notes[k].End = w.v.w
}

// lineBreak reads a <br>: a space in a line of words; two in a row end a
// paragraph, as pages without <p> separate theirs.
func (w *walker) lineBreak(t token) {
	if !w.visible() {
		w.v.skip(t.start, t.end)
		return
	}
	if w.agg < 0 && w.cur.open {
		if w.br {
			w.flush()
		} else {
			w.br = true
		}
	}
	w.v.sep(t.start, t.end)
}

// plain is the view's span [start, end) as one line of words: what a
// heading, a cell or a section path holds.
func (w *walker) plain(start, end int) string {
	if start < 0 || end <= start {
		return ""
	}
	var b strings.Builder
	for i := start; i < end; i++ {
		if !w.v.removed[i] {
			b.WriteByte(w.v.b[i])
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
