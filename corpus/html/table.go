package html

import (
	"strconv"
	"strings"

	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/schema"
)

// tableState is the table whose rows are read: one outside any item, quote
// or cell, and not a highlighter's layout of code. A table inside a cell
// is words of the cell.
type tableState struct {
	at      int      // the table's stack index
	id      int      // its number, from 1
	names   []string // the columns' names, from its header row
	head    bool     // in its thead: rows name the columns
	rowOpen bool
	cells   []cellWords
	th      bool // the cell being read is a header cell
	span    int  // and spans that many columns
}

type cellWords struct {
	th         bool
	span       int
	text       string
	start, end int // the view's span of its words; start < 0: none
}

func (w *walker) openTable(i int, t token) {
	if w.agg >= 0 || w.table != nil {
		return
	}
	for _, c := range strings.Fields(strings.ToLower(attrOf(t, "class"))) {
		if codeTables[c] {
			return
		}
	}
	w.stack[i].roles |= roleTable
	w.tables = append(w.tables, w.line(t.start))
	w.table = &tableState{at: i, id: len(w.tables)}
}

// openTablePart reads a part of the table whose rows are read; the parts of
// any other table are only boundaries between words.
func (w *walker) openTablePart(i int, t token) {
	tb := w.table
	if tb == nil || w.nearest("table") != tb.at {
		return
	}
	switch t.tag {
	case atom.Thead:
		w.stack[i].roles |= roleTableHead
		tb.head = true
	case atom.Tr:
		w.closeRow()
		w.stack[i].roles |= roleRow
		tb.rowOpen = true
	case atom.Td, atom.Th:
		tb.rowOpen = true // a cell outside a row starts one
		tb.th, tb.span = t.tag == atom.Th, 1
		if n, err := strconv.Atoi(strings.TrimSpace(attrOf(t, "colspan"))); err == nil && n > 1 && n <= 1000 {
			tb.span = n
		}
		w.agg = i
		w.stack[i].roles |= roleCell | roleBlock
		w.begin(pending{cell: true})
	case atom.Caption:
		if w.agg < 0 {
			w.agg = i
			w.stack[i].roles |= roleBlock
			w.begin(pending{el: schema.ElementParagraph, split: true})
		}
	}
}

func (w *walker) closeCell() {
	c := w.cur
	w.cur, w.agg = pending{}, -1
	if tb := w.table; tb != nil {
		tb.cells = append(tb.cells, cellWords{th: tb.th, span: tb.span, text: w.plain(c.start, c.end), start: c.start, end: c.end})
	}
}

func (w *walker) closeTable() {
	w.closeRow()
	w.table = nil
}

// closeRow places the row read: a header row (in thead, or all header
// cells) names the columns; any other is a block whose text is
// "Header: value; Header: value", as a Markdown table's rows.
func (w *walker) closeRow() {
	tb := w.table
	if tb == nil || !tb.rowOpen {
		return
	}
	cells := tb.cells
	tb.rowOpen, tb.cells = false, nil
	if len(cells) == 0 {
		return
	}
	header := tb.head
	if !header {
		header = true
		for _, c := range cells {
			header = header && c.th
		}
	}
	if header {
		tb.names = tb.names[:0]
		for _, c := range cells {
			for range c.span {
				tb.names = append(tb.names, c.text)
			}
		}
		return
	}
	var b strings.Builder
	var spans []schema.Cell
	start, end, col := -1, -1, 0
	for _, c := range cells {
		if c.text != "" {
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			name := ""
			if col < len(tb.names) && tb.names[col] != "" {
				name = tb.names[col]
				b.WriteString(name + ": ")
			}
			spans = append(spans, schema.Cell{Header: name, Start: b.Len(), End: b.Len() + len(c.text)})
			b.WriteString(c.text)
			if start < 0 {
				start = c.start
			}
			end = c.end
		}
		col += c.span
	}
	if b.Len() == 0 {
		return
	}
	w.place(chunking.Block{Element: schema.ElementTableRow, Start: start, End: end, Text: b.String(), Table: tb.id, Cells: spans})
}
