package html

import (
	"fmt"

	"golang.org/x/net/html/atom"
)

// The stack of open elements: what a start tag closes before it opens,
// how far an end tag reaches, and what closing an element undoes.

// role is what an open element started; closing it undoes it.
type role uint32

const (
	roleHide      role = 1 << iota // its content is not shown
	roleMain                       // main, or role=main: the page's content
	roleContent                    // article, main, section: a header or footer in it is content
	roleBlock                      // its words are one block (walker.agg)
	roleItemCode                   // code inside a list item: a block of its own
	roleCode                       // its white space is kept
	roleList                       // a list: its items' markers
	roleNest                       // a list or quote: counted for limits.max_depth
	roleTable                      // the table whose rows are read
	roleTableHead                  // the head of that table: its rows name the columns
	roleRow                        // a row of that table
	roleCell                       // a cell of that table (also roleBlock)
	roleNote                       // an admonition
	roleTitle                      // the page's <title>
	roleDetails                    // a disclosure whose summary titles a section
)

// elem is an open element.
type elem struct {
	tag   atom.Atom
	name  string
	start int // its start tag's offset in Doc.Text
	scope int // the nearest element at or below it that an end tag does not close through (scopes); -1: none
	stop  int // the nearest element at or below it a list item does not close across (itemStops); -1: none
	roles role
}

// maxNesting bounds how deep elements nest, as a multiple of
// limits.max_depth (64: 1,024 elements). Real pages nest 10 to 25 deep
// (the Node.js, Rust, Go and Valgrind manuals); the bound keeps a hostile
// page's stack, not its time, in check.
const maxNesting = 16

// inScope reports whether an end tag for the element at i reaches it: no
// element of scopes is open above it (for the parts of a table, no table).
func (w *walker) inScope(i int, tag atom.Atom) bool {
	switch tag {
	case atom.Table, atom.Tr, atom.Td, atom.Th, atom.Tbody, atom.Thead, atom.Tfoot, atom.Caption:
		return w.nearest("table") <= i
	}
	return w.stack[len(w.stack)-1].scope <= i
}

// closeImplied pops what start tag t closes before it opens: a paragraph
// before a block, a list item before the next, a heading before a heading,
// a cell before the next cell or row.
func (w *walker) closeImplied(t token) {
	top := len(w.stack) - 1
	popTo := func(i int) {
		for i >= 0 && len(w.stack) > i {
			w.pop()
		}
	}
	if closesP[t.tag] {
		if p := w.nearest("p"); p >= 0 && w.stack[top].scope < p {
			popTo(p)
			top = len(w.stack) - 1
		}
	}
	switch t.tag {
	case atom.Li:
		if i := w.nearest("li"); i >= 0 && w.stack[top].stop == i {
			popTo(i)
		}
	case atom.Dt, atom.Dd:
		if i := max(w.nearest("dt"), w.nearest("dd")); i >= 0 && w.stack[top].stop == i {
			popTo(i)
		}
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if top >= 0 && headings[w.stack[top].tag] > 0 {
			popTo(top)
		}
	case atom.Td, atom.Th:
		popTo(w.inTable("td", "th"))
	case atom.Tr:
		popTo(w.inTable("tr", "td", "th"))
	case atom.Tbody, atom.Thead, atom.Tfoot, atom.Caption:
		popTo(w.inTable("tbody", "thead", "tfoot", "tr", "td", "th", "caption"))
	}
}

// inTable is the lowest open element named in names that is inside the
// innermost open table, or -1.
func (w *walker) inTable(names ...string) int {
	table, low := w.nearest("table"), -1
	for _, n := range names {
		if i := w.nearest(n); i > table && (low < 0 || i < low) {
			low = i
		}
	}
	return low
}

func (w *walker) nearest(name string) int {
	if is := w.open[name]; len(is) > 0 {
		return is[len(is)-1]
	}
	return -1
}

func (w *walker) push(t token) int {
	i := len(w.stack)
	if i >= maxNesting*w.limits.MaxDepth {
		w.refuse(t.start, "too-deep", fmt.Sprintf("elements nested %d deep, over %d (%d times limits.max_depth)", i+1, maxNesting*w.limits.MaxDepth, maxNesting))
	}
	e := elem{tag: t.tag, name: t.name, start: t.start, scope: -1, stop: -1}
	if i > 0 {
		e.scope, e.stop = w.stack[i-1].scope, w.stack[i-1].stop
	}
	if scopes[t.tag] {
		e.scope = i
	}
	if itemStops[t.tag] {
		e.stop = i
	}
	w.stack = append(w.stack, e)
	w.open[t.name] = append(w.open[t.name], i)
	return i
}

// pop closes the top element, undoing what it started.
func (w *walker) pop() {
	i := len(w.stack) - 1
	e := w.stack[i]
	switch {
	case e.roles&roleCell != 0:
		w.closeCell()
	case e.roles&roleBlock != 0:
		w.closeBlock()
	case e.roles&roleItemCode != 0:
		w.closeItemCode()
	}
	if e.roles&roleRow != 0 {
		w.closeRow()
	}
	if e.roles&roleTable != 0 {
		w.closeTable()
	}
	if e.roles&roleTableHead != 0 {
		w.table.head = false
	}
	if e.roles&roleList != 0 {
		w.closeList()
	}
	if e.roles&roleNote != 0 {
		w.closeNote()
	}
	if e.roles&roleDetails != 0 {
		w.closeHeadings(summaryLevel)
	}
	if e.roles&roleNest != 0 {
		w.nest--
	}
	if e.roles&roleCode != 0 {
		w.code--
	}
	if e.roles&roleContent != 0 {
		w.content--
	}
	if e.roles&roleHide != 0 {
		w.hide--
	}
	if e.roles&roleMain != 0 {
		w.main--
	}
	if e.roles&roleTitle != 0 {
		w.meta.title.close()
	}
	is := w.open[e.name]
	w.open[e.name] = is[:len(is)-1]
	w.stack = w.stack[:i]
}
