package html

import (
	"fmt"
	"slices"
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// The walker reads a page's tokens once, in order, keeping the stack of
// open elements the way a browser's tree builder does for what a reader
// sees: a paragraph closed by the block after it, a list item by the next
// item, a table cell by the next cell, an end tag that does not reach out
// of a table cell. It is not the tree builder (x/net/html's Parse keeps no
// positions in the source, and the chunker needs them); every step is
// constant time but for the pops, each element popped once, so a page is
// read in time linear in its size whatever its nesting.

// walker turns a page's tokens into its view, blocks and metadata.
type walker struct {
	doc    schema.Document
	lx     *lexer
	v      *view
	limits corpus.Limits

	stack []elem
	open  map[string][]int // the stack's indices of the open elements, by name
	hide  int              // open elements that hide their content
	main  int              // open main elements
	// hasMain: the page has a main element (or role=main); what is
	// outside it is the site around the page.
	hasMain bool
	content int // open article, main and section elements
	code    int // open code elements
	nest    int // open lists and quotes

	layout
	meta   meta
	diags  []schema.Diagnostic
	markup map[string]int
	err    *schema.Diagnostic // a limit the page is over: it is refused

	newlines []int // the text's, for line numbers; read on the first asked
}

func newWalker(doc schema.Document, limits corpus.Limits, hasMain bool) *walker {
	w := &walker{doc: doc, lx: newLexer(doc.Text, doc.BodyStart), v: newView(doc.Text, doc.BodyStart), limits: limits,
		open: map[string][]int{}, hasMain: hasMain, markup: map[string]int{}}
	w.agg, w.itemCode = -1, -1
	return w
}

// walk reads every token, then closes what is open.
func (w *walker) walk() {
	for w.err == nil {
		t, ok := w.lx.next()
		if !ok {
			break
		}
		switch t.typ {
		case nethtml.TextToken:
			w.text(t)
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			w.markup[markupTag]++
			w.startTag(t)
		case nethtml.EndTagToken:
			w.markup[markupTag]++
			w.endTag(t)
		case nethtml.CommentToken:
			w.comment(t)
		case nethtml.DoctypeToken:
			w.v.skip(t.start, t.end)
		case nethtml.ErrorToken: // a tag left open at the end of the file
			w.warn(t.start, "unclosed-tag", "a tag is never closed: the rest of the file is not shown")
			w.v.skip(t.start, t.end)
		}
	}
	if w.err != nil {
		return
	}
	for i := range w.stack {
		if e := w.stack[i]; rawText[e.tag] {
			w.warn(e.start, "unclosed-element", fmt.Sprintf("<%s> is never closed: the rest of the file is read as its content and not shown", e.name))
			break
		}
	}
	for len(w.stack) > 0 {
		w.pop()
	}
	w.flush()
	w.closeHeadings(1)
	w.v.finish()
	if len(w.out) == 0 && !w.titled {
		w.warn(w.doc.BodyStart, "no-text", "no text a reader sees: the page may be drawn by scripts, or all of it is hidden")
	}
}

// rawText elements hold text the tokenizer does not read tags in: one
// never closed holds the rest of the file.
var rawText = set(atom.Script, atom.Style, atom.Textarea, atom.Title, atom.Xmp, atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript)

// visible reports whether text read now is shown.
func (w *walker) visible() bool { return w.hide == 0 && (!w.hasMain || w.main > 0) }

func (w *walker) text(t token) {
	if n := len(w.stack); n > 0 && w.stack[n-1].roles&roleTitle != 0 {
		w.meta.title.add(w.doc.Text[t.start:t.end], w.line(t.start))
	}
	if !w.visible() {
		w.v.skip(t.start, t.end)
		return
	}
	if first, last := w.v.words(t.start, t.end, w.code > 0); first >= 0 {
		w.extend(first, last)
	}
}

func (w *walker) comment(t token) {
	w.markup[markupComment]++
	raw := w.doc.Text[t.start:t.end]
	if t.end == len(w.doc.Text) && strings.HasPrefix(raw, "<!--") && !strings.HasSuffix(raw, "-->") && !strings.HasSuffix(raw, "--!>") {
		w.warn(t.start, "unclosed-comment", "a comment is never closed: the rest of the file is not shown")
	}
	w.v.skip(t.start, t.end)
}

func (w *walker) startTag(t token) {
	if void[t.tag] || t.typ == nethtml.SelfClosingTagToken && (t.tag == atom.Svg || t.tag == atom.Math) {
		w.voidTag(t)
		return
	}
	// A self-closing slash on any other element is ignored, as HTML
	// ignores it: <div/> opens a div.
	w.closeImplied(t)
	if w.err != nil {
		return
	}
	i := w.push(t)
	e := &w.stack[i]
	if t.tag == atom.Main || attrIs(t, "role", "main") {
		e.roles |= roleMain
		w.main++
	}
	if w.visible() && w.hides(t) {
		e.roles |= roleHide
		w.hide++
		w.markup[w.hiddenKind(t)]++
	}
	if t.tag == atom.Title && len(w.open["svg"]) == 0 && !w.meta.title.seen() {
		e.roles |= roleTitle
	}
	if t.tag == atom.Html {
		if l, ok := t.attr("lang"); ok && w.meta.lang.text == "" {
			w.meta.lang.set(l, w.line(t.start))
		}
	}
	if !w.visible() {
		w.v.skip(t.start, t.end)
		return
	}
	if t.tag == atom.Article || t.tag == atom.Main || t.tag == atom.Section || e.roles&roleMain != 0 {
		e.roles |= roleContent
		w.content++
	}
	if boundaries[t.tag] && w.agg < 0 {
		w.flush()
	}
	shown := w.enter(i, t)
	if kind := noteKind(attrOf(t, "class")); kind != "" {
		w.openNote(i, kind)
	}
	switch {
	case shown:
	case boundaries[t.tag]:
		w.v.sep(t.start, t.end)
	default:
		w.v.skip(t.start, t.end)
	}
}

// enter gives the element just pushed at i its part in the page's blocks,
// and reports whether it showed its start tag in the view itself.
func (w *walker) enter(i int, t token) bool {
	switch {
	case headings[t.tag] > 0:
		return w.openHeading(i, t)
	case code[t.tag]:
		w.openCode(i)
	case lists[t.tag]:
		w.openList(i, t)
	case t.tag == atom.Li || t.tag == atom.Dt || t.tag == atom.Dd:
		return w.openItem(i, t)
	case t.tag == atom.Blockquote:
		w.openQuote(i)
	case t.tag == atom.Summary:
		w.openSummary(i)
	case t.tag == atom.Table:
		w.openTable(i, t)
	case t.tag == atom.Tr, t.tag == atom.Td, t.tag == atom.Th, t.tag == atom.Thead, t.tag == atom.Caption:
		w.openTablePart(i, t)
	case t.tag == atom.Code && w.code > 0 && w.cur.open && w.cur.el == schema.ElementCodeBlock && w.cur.start >= 0:
		// A second listing in one <pre> (a page's JavaScript as a module
		// and as CommonJS, one shown at a time): code of its own.
		c := w.cur
		w.flush()
		w.begin(pending{el: schema.ElementCodeBlock, list: c.list, item: c.item})
		w.v.sep(t.start, t.end)
		return true
	}
	return false
}

func (w *walker) voidTag(t token) {
	switch {
	case t.tag == atom.Meta || t.tag == atom.Link || t.tag == atom.Base:
		if len(w.open["svg"]) == 0 {
			w.meta.read(t, w.line(t.start))
		}
		w.v.skip(t.start, t.end)
	case !w.visible():
		w.v.skip(t.start, t.end)
	case t.tag == atom.Br:
		w.lineBreak(t)
	case t.tag == atom.Hr:
		if w.agg < 0 {
			w.flush()
		}
		w.v.sep(t.start, t.end)
	case t.tag == atom.Img:
		alt := strings.Join(strings.Fields(attrOf(t, "alt")), " ")
		if s, e := w.v.synth(alt, t.start, t.end); e > s {
			w.extend(s, e)
		}
	default:
		w.v.skip(t.start, t.end)
	}
}

func (w *walker) endTag(t token) {
	i := w.nearest(t.name)
	if i < 0 || !w.inScope(i, t.tag) {
		switch {
		case !w.visible():
			w.v.skip(t.start, t.end)
		case t.tag == atom.Br: // </br> is read as <br>
			w.lineBreak(t)
		case boundaries[t.tag]:
			if w.agg < 0 {
				w.flush()
			}
			w.v.sep(t.start, t.end)
		default:
			w.v.skip(t.start, t.end)
		}
		return
	}
	for len(w.stack) > i {
		w.pop()
	}
	if boundaries[t.tag] && w.visible() {
		w.v.sep(t.start, t.end)
	} else {
		w.v.skip(t.start, t.end)
	}
}

// line is the line of the text's offset off.
func (w *walker) line(off int) int {
	if w.newlines == nil {
		w.newlines = []int{}
		for i := 0; i < len(w.doc.Text); i++ {
			if w.doc.Text[i] == '\n' {
				w.newlines = append(w.newlines, i)
			}
		}
	}
	n, _ := slices.BinarySearch(w.newlines, off)
	return n + 1
}

func (w *walker) warn(off int, code, msg string) {
	w.diags = append(w.diags, schema.Diagnostic{Path: w.doc.Path, Line: w.line(off), Severity: schema.SeverityWarning, Code: code, Message: msg})
}

func (w *walker) refuse(off int, code, msg string) {
	if w.err == nil {
		w.err = &schema.Diagnostic{Path: w.doc.Path, Line: w.line(off), Severity: schema.SeverityError, Code: code, Message: msg}
	}
}

func attrOf(t token, key string) string {
	v, _ := t.attr(key)
	return v
}

func attrIs(t token, key, want string) bool {
	return strings.EqualFold(strings.TrimSpace(attrOf(t, key)), want)
}
