package markdown

import (
	"bytes"
	"cmp"
	"html"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/schema"
)

// span is a half-open byte range of Doc.Text.
type span struct{ start, end int }

// blockWalker flattens a document's tree into blocks, in source order.
type blockWalker struct {
	p        *parsed
	off      int           // Doc.BodyStart: tree positions are relative to it
	headings []headingMark // open headings, outermost first
	section  int
	blocks   []chunking.Block
	tables   []int // lines of tables (for the table-in-prose warning)
	lists    int   // lists seen, to number them
	items    int   // list items seen, to number them
	lastTab  int   // the tab of the last block placed in one
	diags    []schema.Diagnostic
}

type headingMark struct {
	level   int
	text    string
	span    span
	covered bool // a block was placed under it
}

func (w *blockWalker) walk() []chunking.Block {
	src := w.p.src
	for n := w.p.root.FirstChild(); n != nil; n = n.NextSibling() {
		s := w.nodeSpan(n, n.NextSibling(), len(src))
		if s.end <= w.p.Doc.ContentStart {
			continue // the title and its header lines
		}
		if s.start < w.p.Doc.ContentStart {
			s.start = w.p.Doc.ContentStart
		}
		w.node(n, s)
	}
	w.closeHeadings(1)
	return w.blocks
}

func (w *blockWalker) node(n ast.Node, s span) {
	switch n := n.(type) {
	case *ast.Heading:
		w.closeHeadings(n.Level)
		w.headings = append(w.headings, headingMark{level: n.Level, text: inlineText(n, w.p.src), span: s})
		w.section++
	case *ast.ThematicBreak:
		// a rule carries no text
	case *ast.List:
		w.lists++
		for it := n.FirstChild(); it != nil; it = it.NextSibling() {
			w.listItem(it, w.nodeSpan(it, it.NextSibling(), s.end-w.off))
		}
	case *ast.FencedCodeBlock:
		w.checkFence(s)
		w.add(schema.ElementCodeBlock, s, false)
	case *ast.CodeBlock:
		w.add(schema.ElementCodeBlock, s, false)
	case *extast.Table:
		w.table(n)
	case *ast.Blockquote:
		if s.end > s.start {
			w.place(chunking.Block{Element: schema.ElementParagraph, Start: s.start, End: s.end, Text: w.p.view[s.start:s.end], Split: true, Quote: true})
		}
	default: // paragraphs, HTML
		w.add(schema.ElementParagraph, s, true)
	}
}

// listItem places a list item: its text as one list_item block, and a code
// block inside it as a code_block of its own, whole, so that sentence
// splitting never cuts through code (a numbered step with a shell listing).
// Both carry the item and its list, so the packer keeps a step's words with
// its code.
func (w *blockWalker) listItem(it ast.Node, s span) {
	w.items++
	start := s.start
	for c := it.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
		default:
			continue
		}
		cs := w.nodeSpan(c, c.NextSibling(), s.end-w.off)
		if cs.start > start {
			w.itemText(span{start, min(cs.start, s.end)})
		}
		if _, fenced := c.(*ast.FencedCodeBlock); fenced {
			w.checkFence(cs)
		}
		if cs.end > cs.start {
			w.place(chunking.Block{Element: schema.ElementCodeBlock, Start: cs.start, End: cs.end, Text: w.p.view[cs.start:cs.end], List: w.lists, Item: w.items})
		}
		start = cs.end
	}
	if start < s.end {
		w.itemText(span{start, s.end})
	}
}

func (w *blockWalker) itemText(s span) {
	for s.start < s.end && strings.ContainsRune(" \t\n", rune(w.p.view[s.start])) {
		s.start++
	}
	t := strings.TrimRight(w.p.view[s.start:s.end], " \t\n")
	if strings.TrimSpace(t) == "" {
		return
	}
	s.end = s.start + len(t)
	w.place(chunking.Block{Element: schema.ElementListItem, Start: s.start, End: s.end, Text: t, Split: true, List: w.lists, Item: w.items})
}

func (w *blockWalker) add(el schema.Element, s span, split bool) {
	if s.end <= s.start {
		return
	}
	w.place(chunking.Block{Element: el, Start: s.start, End: s.end, Text: w.p.view[s.start:s.end], Split: split})
}

// place files b under the open headings.
func (w *blockWalker) place(b chunking.Block) {
	b.Section = make([]string, len(w.headings))
	for i := range w.headings {
		b.Section[i] = w.headings[i].text
		w.headings[i].covered = true
	}
	b.SectionID = w.section
	var titled []admonition // the titled tabs and blocks it is in, outer first
	for i, a := range w.p.admonitions {
		if b.Start < a.end && a.start < b.End {
			b.Group = i + 1
			if a.title != "" {
				titled = append(titled, a)
			}
		}
	}
	for i, t := range w.p.tabs { // outer tabs first: they are sorted by start
		if b.Start < t.end && t.start < b.End {
			if t.title != "" {
				titled = append(titled, t)
			}
			b.Tab = i + 1
		}
	}
	slices.SortStableFunc(titled, func(x, y admonition) int { return cmp.Compare(x.start, y.start) })
	for _, t := range titled {
		// A block over sibling tabs (a list item holding a tab pane) is in
		// none of them: its path is not their titles one after the other.
		if !slices.ContainsFunc(titled, func(u admonition) bool { return u.end <= t.start || t.end <= u.start }) {
			b.Section = append(b.Section, t.title)
		}
	}
	if b.Tab != 0 && b.Tab != w.lastTab {
		b.TabStart, w.lastTab = true, b.Tab
	}
	w.blocks = append(w.blocks, b)
}

// closeHeadings closes the headings at level and deeper. One that has nothing
// under it becomes a section_heading block, so no heading is lost; it then
// covers its parents.
func (w *blockWalker) closeHeadings(level int) {
	for len(w.headings) > 0 && w.headings[len(w.headings)-1].level >= level {
		h := w.headings[len(w.headings)-1]
		if !h.covered {
			w.place(chunking.Block{Element: schema.ElementSectionHeading, Start: h.span.start, End: h.span.end, Text: w.p.view[h.span.start:h.span.end]})
		}
		w.headings = w.headings[:len(w.headings)-1]
	}
}

// table turns each body row into a "Header: value; Header: value" block whose
// span is the row's source line.
func (w *blockWalker) table(t *extast.Table) {
	var names []string
	w.tables = append(w.tables, w.lineOf(t.Pos()))
	id := len(w.tables)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, inlineText(c, w.p.src))
		}
		if _, ok := r.(*extast.TableHeader); ok {
			names = cells
			continue
		}
		var b strings.Builder
		var spans []schema.Cell
		for i, v := range cells {
			if v == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			header := ""
			if i < len(names) && names[i] != "" {
				header = names[i]
				b.WriteString(header + ": ")
			}
			spans = append(spans, schema.Cell{Header: header, Start: b.Len(), End: b.Len() + len(v)})
			b.WriteString(v)
		}
		s := w.lineSpan(r.Pos())
		if b.Len() == 0 || s.end <= s.start {
			continue
		}
		w.place(chunking.Block{Element: schema.ElementTableRow, Start: s.start, End: s.end, Text: b.String(), Table: id, Cells: spans})
	}
}

// nodeSpan is n's source span in Doc.Text: from the start of its first line to
// where next starts (or limit, relative to the body), less trailing blank space.
func (w *blockWalker) nodeSpan(n, next ast.Node, limit int) span {
	src := w.p.src
	start := lineStartOf(src, n.Pos())
	end := limit
	if next != nil && next.Pos() >= 0 {
		end = lineStartOf(src, next.Pos())
	}
	end = len(bytes.TrimRight(src[:end], " \t\n"))
	if end < start {
		end = start
	}
	return span{start + w.off, end + w.off}
}

// lineSpan is the span of the line holding body offset pos, without its newline.
func (w *blockWalker) lineSpan(pos int) span {
	src := w.p.src
	start := lineStartOf(src, pos)
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	end = start + len(bytes.TrimRight(src[start:end], " \t"))
	return span{start + w.off, end + w.off}
}

func (w *blockWalker) lineOf(pos int) int {
	return 1 + strings.Count(w.p.Doc.Text[:lineStartOf(w.p.src, pos)+w.off], "\n")
}

func lineStartOf(src []byte, pos int) int {
	if pos < 0 {
		pos = 0
	}
	if pos > len(src) {
		pos = len(src)
	}
	return bytes.LastIndexByte(src[:pos], '\n') + 1
}

// inlineText is the plain text of n's inline content: markup dropped, line
// breaks as spaces.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.URL(src))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return html.UnescapeString(strings.Join(strings.Fields(b.String()), " "))
}

// checkFence warns about a fence that is never closed: the rest of the
// document became code, which is rarely what the author meant.
func (w *blockWalker) checkFence(s span) {
	t := w.p.view[s.start:s.end] // the view: a fence in a tab's or component's body moved left
	open := strings.TrimLeft(t, " ")
	mark := open[:1]
	n := len(open) - len(strings.TrimLeft(open, mark))
	last := t[strings.LastIndexByte(t, '\n')+1:]
	closed := strings.Contains(t, "\n") && strings.HasPrefix(strings.TrimSpace(last), strings.Repeat(mark, n)) &&
		strings.Trim(strings.TrimSpace(last), mark) == ""
	if !closed {
		w.diags = append(w.diags, schema.Diagnostic{Path: w.p.Doc.Path, Line: lineNumber(w.p.Doc.Text, s.start),
			Severity: schema.SeverityWarning, Code: "unclosed-fence", Message: "code fence is never closed: the rest of the document is read as code"})
	}
}

func lineNumber(text string, off int) int { return 1 + strings.Count(text[:off], "\n") }
