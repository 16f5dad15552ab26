package markdown

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/corpus"
)

// Documentation sites write more than Markdown: Hugo shortcodes, HTML
// comments and tags, attribute lists ({#id .class}), Docusaurus and MkDocs
// admonitions, MDX import lines. None of it is words a reader needs, and
// left in a chunk it is noise to a retriever and a model. cleanMarkup blanks
// it before the document is parsed: every removed byte becomes a space (a
// newline stays a newline), so the text keeps its length, every byte offset
// and line number still points into the source, and the parser sees the
// document as a reader of the rendered page would. Fenced code and inline
// code are left alone: markup there is what the code says. A chunk's text is
// then its source span without the blanked bytes (chunking.Body's compact).

// The kinds of markup removed, as report.json counts them.
const (
	markupShortcode   = "shortcode"
	markupComment     = "html_comment"
	markupInstruction = "processing_instruction" // <?code-excerpt "x.java"?>: tooling's, not the reader's
	markupHTML        = "html_tag"
	markupAttributes  = "attribute_list"
	markupAdmonition  = "admonition"
	markupImport      = "mdx_import"
	markupLinkDef     = "link_definition" // [label]: https://… lines, which render as nothing
	markupJinja       = "jinja"           // {% raw %}, {% if x %}: mkdocs-macros' template tags, which render as nothing
	markupIcon        = "icon"            // :material-tag:, MkDocs Material's icon shortcodes (pymdownx.emoji), which render as a picture
)

var (
	// {{< name args >}}, {{< /name >}}, {{% name %}}: the delimiters and
	// the arguments go, the text between an opening and a closing stays.
	shortcodeRe = regexp.MustCompile(`\{\{[<%]-?\s*/?\s*[\w./-]*(?:[^}]|\}[^}])*?-?[%>]\}\}`)
	commentRe   = regexp.MustCompile(`(?s)<!--.*?-->`)
	// :material-tag:, :octicons-check-16:, :fontawesome-brands-github:,
	// :simple-docker:: an icon of MkDocs Material's sets, drawn where the
	// shortcode stands (testcontainers-go writes 634 "Since :material-tag:
	// v0.37.0"). Only those sets' prefixes: ":param:" is words.
	iconRe = regexp.MustCompile(`:(?:material|octicons|fontawesome|simple)-[a-z0-9]+(?:-[a-z0-9]+)*:`)
	// <?name …?>, an HTML processing instruction: docs tooling leaves them
	// (OpenTelemetry's Java pages have 207 <?code-excerpt?> lines).
	instructionRe = regexp.MustCompile(`(?s)<\?[A-Za-z][\w-]*.*?\?>`)
	// an HTML element of the kinds pages embed; <Type> in prose or an
	// autolink (<https://…>) is not one.
	htmlTagRe = regexp.MustCompile(`(?i)</?(?:a|abbr|article|aside|b|blockquote|br|button|caption|center|code|col|colgroup|dd|del|details|div|dl|dt|em|embed|figcaption|figure|font|footer|h[1-6]|header|hr|i|iframe|img|input|ins|kbd|label|li|link|main|mark|meta|nav|object|ol|option|p|param|picture|pre|s|section|select|small|source|span|strong|sub|summary|sup|svg|table|tbody|td|tfoot|th|thead|tr|u|ul|video|wbr)(?:\s[^<>]*)?/?>`)
	altRe     = regexp.MustCompile(`(?i)\balt\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	// <script> and <style> elements go whole: their content is code.
	scriptRe = regexp.MustCompile(`(?is)<(script|style)\b[^>]*>.*?</(?:script|style)\s*>`)
	// {#id}, { #id .class }, {: key=value } after a heading, a table or a
	// block (corpus.AttrList); Hugo's {{< /* */ >}} is a shortcode, not one
	// of these.
	attrRe = corpus.AttrList
	// :::note Title … ::: (Docusaurus)
	colonAdmonitionRe = regexp.MustCompile(`^ {0,3}:{3,}\s*([A-Za-z]*).*$`)
	// !!! note "Title" / ??? tip (MkDocs), body indented four spaces; the
	// space after the marker is optional to Python-Markdown ("!!!note")
	bangAdmonitionRe = regexp.MustCompile(`^(?:!!!|\?\?\?[+-]?)[ \t]*([A-Za-z]+).*$`)
	jinjaRe          = regexp.MustCompile(`\{%-?[ \t]*(?:raw|endraw|if|elif|else|endif|for|endfor|set|endset|macro|endmacro|block|endblock|extends|import|from|with|endwith|filter|endfilter|call|endcall)\b[^%\n]*-?%\}`)
	linkDefRe        = regexp.MustCompile(`(?m)^ {0,3}\[[^\]\n]+\]:[ \t]*(?:\n[ \t]*)?(?:<[^<>\n]*>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$`)
	mdxLineRe        = regexp.MustCompile(`^(?:(?:import\s.+\sfrom\s+['"].+['"];?|import\s+['"].+['"];?)[ \t]*(?://.*)?|export\s+(?:const|default|function|let)\b.*)$`)
)

// cleaned is a document body with its markup blanked.
type cleaned struct {
	b           []byte         // the body being cleaned, same length
	removed     []bool         // per byte: blanked markup
	origin      []int          // per byte of the document: where it came from (dedent moves some left); nil while none has moved
	base        int            // the body's offset in its document
	counts      map[string]int // removals by kind
	admonitions []admonition   // typed regions, for the chunks' metadata
	tabs        []admonition   // content tabs, titled (see tabs.go)
	shifts      []shift        // lines whose words move left over insignificant indentation, once all markup is blanked
}

// admonition is a region of a body inside a note, tip, warning… or a
// content tab (kind "tab", with its title).
type admonition struct {
	kind       string
	title      string
	start, end int
}

// shift is a line [start, end) of a body whose words move n bytes left:
// the body of a MkDocs admonition or tab, the children of a JSX element.
type shift struct{ start, end, n int }

// cleanMarkup blanks the markup of body in b, a copy of it, marks the
// blanked bytes in removed (base is the body's offset in its document).
// The caller gives both at the body's length, as views of the document's own
// arrays, so nothing is copied twice. Where a line's words were moved left
// (see dedent), origin holds each byte's offset in the document.
func cleanMarkup(body string, b []byte, removed []bool, base int, mdx bool) cleaned {
	c := cleaned{b: b, removed: removed, base: base, counts: map[string]int{}}
	fenced, inline := codeRanges(body)
	protected := append(append(make([][2]int, 0, len(fenced)+len(inline)), fenced...), inline...)
	slices.SortFunc(protected, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	blank := c.blank
	// Markup that starts in code is the code's; markup that holds a code
	// span (a shortcode with a `quoted` argument) is still markup. Hugo
	// renders shortcodes inside inline code too (`{{% param vers %}}` is the
	// version), so there they are markup as well.
	c.lines(body, protected, fenced, blank)
	for _, re := range []struct {
		kind string
		find func(string) [][]int
	}{
		{markupComment, findAll(commentRe, "<!--")},
		{markupInstruction, findAll(instructionRe, "<?")},
		{markupHTML, findAll(scriptRe, "<")},
		{markupShortcode, shortcodes},
		{markupAttributes, findAll(attrRe, "{")},
		{markupLinkDef, linkDefinitions},
		{markupJinja, findAll(jinjaRe, "{%")},
		{markupIcon, findAll(iconRe, ":")},
	} {
		code := &cursor{rs: protected} // matches come in order
		if re.kind == markupShortcode {
			code = &cursor{rs: fenced}
		}
		var blanked [][]int
		for _, m := range re.find(body) {
			if !code.in(m[0]) && !c.removed[m[0]] {
				blank(re.kind, m[0], m[1])
				blanked = append(blanked, m)
			}
		}
		if re.kind == markupShortcode {
			c.tabs = append(c.tabs, hugoTabs(body, blanked)...)
		}
	}
	c.jsx(body, protected, mdx)
	code := &cursor{rs: protected}
	for _, m := range findAll(htmlTagRe, "<")(body) {
		if code.in(m[0]) || c.removed[m[0]] {
			continue
		}
		blank(markupHTML, m[0], m[1])
		if alt := altRe.FindStringSubmatch(body[m[0]:m[1]]); alt != nil {
			text := alt[1] + alt[2] // an image keeps its alt text, in place
			if len(text) <= m[1]-m[0] && !strings.Contains(text, "\n") {
				copy(b[m[0]:], text)
				for i := m[0]; i < m[0]+len(text); i++ {
					c.removed[i] = false
				}
			}
		}
	}
	c.emptyCode(inline)
	for _, sh := range c.shifts {
		c.shift(sh)
	}
	c.dedent()
	slices.SortStableFunc(c.tabs, func(a, b admonition) int { return cmp.Compare(a.start, b.start) })
	return c
}

// shift moves the words of a line left over sh.n bytes of its leading
// blanks, as dedent does over markup: the line keeps its length, and the gap
// moves to its end, blanked.
func (c *cleaned) shift(sh shift) {
	ls, le, n := sh.start, sh.end, sh.n
	if n <= 0 || le-ls < n {
		return
	}
	copy(c.b[ls:], c.b[ls+n:le])
	copy(c.removed[ls:], c.removed[ls+n:le])
	origin := c.moved()
	copy(origin[ls:], origin[ls+n:le])
	for j := le - n; j < le; j++ {
		c.b[j], c.removed[j], origin[j] = ' ', true, c.base+le-1
	}
}

// findAll is re.FindAllStringIndex, skipped when the text lacks lit, a
// string every match holds.
func findAll(re *regexp.Regexp, lit string) func(string) [][]int {
	return func(s string) [][]int {
		if !strings.Contains(s, lit) {
			return nil
		}
		return re.FindAllStringIndex(s, -1)
	}
}

// shortcodes is shortcodeRe.FindAllStringIndex(body, -1), with the
// expression run on one shortcode at a time: a match opens with "{{" and
// cannot hold "}}" before the one that closes it, so the match opening at a
// "{{", if any, ends at the first "}}" after it.
func shortcodes(body string) [][]int {
	var out [][]int
	for pos := 0; ; {
		c := strings.Index(body[pos:], "{{")
		if c < 0 {
			return out
		}
		c += pos
		f := strings.Index(body[c+2:], "}}")
		if f < 0 {
			return out // no shortcode closes after here
		}
		end := c + 2 + f + 2
		if m := shortcodeRe.FindStringIndex(body[c:end]); m != nil && m[0] == 0 {
			out = append(out, []int{c, c + m[1]})
			pos = c + m[1]
		} else {
			pos = c + 1
		}
	}
}

// linkDefinitions is linkDefRe.FindAllStringIndex(body, -1), found without
// running the expression over every line: a definition starts a line with at
// most three spaces and a "[", and spans that line and at most the next (its
// URL may sit there), so it is tried only at such lines, on those two lines,
// and only when the label's first "]" is followed by ":".
func linkDefinitions(body string) [][]int {
	if !strings.Contains(body, "]:") {
		return nil
	}
	var out [][]int
	for ls := 0; ls < len(body); {
		next := lineEnd(body, ls) + 1 // the next line's start
		i := ls
		for i < ls+3 && i < len(body) && body[i] == ' ' {
			i++
		}
		if i < len(body) && body[i] == '[' && labelEnds(body[i+1:min(next, len(body))]) {
			window := body[ls:lineEnd(body, min(next, len(body)))]
			if m := linkDefRe.FindStringIndex(window); m != nil && m[0] == 0 {
				out = append(out, []int{ls, ls + m[1]})
				next = lineEnd(body, ls+m[1]) + 1
			}
		}
		ls = next
	}
	return out
}

// labelEnds reports whether a link label's text (after its "[", to the end
// of its line) has a first "]" that is not its first byte and is followed
// by ":".
func labelEnds(rest string) bool {
	j := strings.IndexByte(rest, ']')
	return j > 0 && j+1 < len(rest) && rest[j+1] == ':'
}

// lineEnd is the offset of the newline ending the line that holds offset i
// of s, or len(s) on the last line.
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// emptyCode removes the backticks of an inline code span whose content was
// all markup (`{{% param vers %}}`): an empty span says nothing.
func (c *cleaned) emptyCode(inline [][2]int) {
	for _, r := range inline {
		n := 0
		for r[0]+n < r[1] && c.b[r[0]+n] == '`' {
			n++
		}
		inner, empty := false, true
		for i := r[0] + n; i < r[1]-n; i++ {
			inner = inner || c.removed[i]
			empty = empty && (c.removed[i] || c.b[i] == ' ')
		}
		if inner && empty {
			c.blank(markupShortcode, r[0], r[1])
			c.counts[markupShortcode]-- // counted as its shortcode
		}
	}
}

// dedent moves the words of a line whose markup was at its start back to
// where the markup began, so that blanked markup does not indent the rest
// into a code block ("{{% alert %}} Text" would be "              Text").
// The line keeps its length: the gap moves to its end.
func (c *cleaned) dedent() {
	for ls := 0; ls < len(c.b); {
		le := bytes.IndexByte(c.b[ls:], '\n')
		if le < 0 {
			le = len(c.b)
		} else {
			le += ls
		}
		first := -1 // the first removed byte of the line's leading blank run
		i := ls
		for i < le && (c.b[i] == ' ' || c.b[i] == '\t') {
			if c.removed[i] && first < 0 {
				first = i
			}
			i++
		}
		if first >= 0 && i < le && i > first {
			k := i - first // bytes to move the rest left by
			copy(c.b[first:], c.b[i:le])
			copy(c.removed[first:], c.removed[i:le])
			origin := c.moved()
			copy(origin[first:], origin[i:le])
			for j := le - k; j < le; j++ {
				c.b[j], c.removed[j], origin[j] = ' ', true, c.base+le-1
			}
		}
		ls = le + 1
	}
}

// moved is the body's part of origin, made on the first move: until then
// every byte is where it came from, and most documents move none.
func (c *cleaned) moved() []int {
	if c.origin == nil {
		c.origin = make([]int, c.base+len(c.b))
		for i := range c.origin {
			c.origin[i] = i
		}
	}
	return c.origin[c.base:]
}

// blank turns body[start:end] into spaces (newlines kept) and marks it
// removed.
func (c *cleaned) blank(kind string, start, end int) {
	for i := start; i < end; i++ {
		if c.b[i] != '\n' {
			c.b[i] = ' '
		}
		c.removed[i] = true
	}
	c.counts[kind]++
}

// lines blanks the markup that owns whole lines: admonition fences and
// titles (their body is kept, MkDocs' de-indented into a block quote of the
// same length), and MDX import and export lines.
func (c *cleaned) lines(body string, protected, fenced [][2]int, blank func(string, int, int)) {
	off := 0
	// Docusaurus admonitions being read, innermost last, as indices into
	// c.admonitions (a pointer would go stale when it grows), with the
	// colons of their fences: an outer one has more (::::note around
	// :::tip), and a closing fence closes the innermost it can.
	type fence struct{ i, colons int }
	var open []fence
	// The MkDocs admonitions and content tabs whose bodies are being read,
	// outermost first: the body of the one at depth d is indented 4·d
	// spaces and moves that far left (code in it too), so the parser reads
	// it as the Markdown it is, not as indented code; an admonition or tab
	// opening in a body nests (Traefik's "??? example" holding a "!!! note").
	var mkdocs []openMkdocs
	// base is the indentation of the outermost one's title: 0, or a list
	// item's content where an admonition opens in a list item (copilot-cli's
	// "1. Verify …" holding a "    !!! warning"); its body keeps base.
	base := 0
	var list listContext
	var blocks pymdownBlocks // PyMdown Blocks (pymdown.go)
	var ext mkdocsLines      // directives, abbreviations, definitions (mkdocs.go)
	code, fenceAt := cursor{rs: protected}, cursor{rs: fenced}
	skip := 0 // the end of the statement just blanked
	for l := range strings.Lines(body) {
		start, line := off, strings.TrimSuffix(l, "\n")
		off += len(l)
		if start < skip {
			continue
		}
		if len(mkdocs) > 0 {
			d := len(mkdocs) // the depth whose indentation the line has
			for d > 0 && !strings.HasPrefix(line, strings.Repeat(" ", base+4*d)) {
				d--
			}
			blankLine := strings.TrimSpace(line) == ""
			if !blankLine { // a blank line closes nothing
				mkdocs = mkdocs[:d]
			}
			if d > 0 {
				c.shifts = append(c.shifts, shift{start, start + len(line), 4 * d})
				for _, o := range mkdocs {
					(*o.list)[o.i].end = off
				}
				if !blankLine && !fenceAt.in(start) {
					mkdocs = c.mkdocsOpens(mkdocs, start+base+4*d, off, line[base+4*d:])
				}
				continue
			}
		}
		if fenceAt.in(start) {
			continue
		}
		if in := list.line(line); in > 0 && !code.in(start) { // an admonition in a list item's content
			if opened := c.mkdocsOpens(mkdocs[:0], start+in, off, line[in:]); len(opened) > 0 {
				mkdocs, base = opened, in
				continue
			}
		}
		if blocks.line(c, start, off, line) || ext.line(c, start, line) { // a line may start with `code` here: a term
			continue
		}
		if code.in(start) {
			continue
		}
		if !maySpanLine(line) {
			continue
		}
		if opened := c.mkdocsOpens(mkdocs[:0], start, off, line); len(opened) > 0 {
			mkdocs, base = opened, 0
			continue
		}
		if m := colonAdmonitionRe.FindStringSubmatch(line); m != nil {
			blank(markupAdmonition, start, start+len(line))
			fenceText := strings.TrimLeft(line, " ")
			colons := len(fenceText) - len(strings.TrimLeft(fenceText, ":"))
			if m[1] != "" { // an opening fence; one never closed runs to the end
				c.admonitions = append(c.admonitions, admonition{kind: strings.ToLower(m[1]), start: start, end: len(body)})
				open = append(open, fence{len(c.admonitions) - 1, colons})
				continue
			}
			for k := len(open) - 1; k >= 0; k-- {
				if open[k].colons <= colons { // closes it and any inner one left open
					for _, f := range open[k:] {
						c.admonitions[f.i].end = off
					}
					open = open[:k]
					c.counts[markupAdmonition]-- // one admonition, counted at its opening
					break
				}
			}
			continue
		}
		if end := mdxStatementEnd(body, start, line); end > 0 { // over lines: mdxstmt.go
			blank(markupImport, start, end)
			skip = end
		} else if mdxLineRe.MatchString(line) {
			blank(markupImport, start, start+len(line))
		}
	}
}

// openMkdocs is a MkDocs admonition or content tab being read: the i-th
// of c.admonitions or c.tabs (an index: a pointer into the slice would go
// stale when it grows).
type openMkdocs struct {
	list *[]admonition
	i    int
}

// mkdocsOpens reads line (at start, the line ending at off) as the title of
// a MkDocs admonition or content tab: blanked, and open with it on top;
// open as it was when the line is neither.
func (c *cleaned) mkdocsOpens(open []openMkdocs, start, off int, line string) []openMkdocs {
	if !maySpanLine(line) {
		return open
	}
	if m := bangAdmonitionRe.FindStringSubmatch(line); m != nil {
		c.blank(markupAdmonition, start, start+len(line))
		c.admonitions = append(c.admonitions, admonition{kind: strings.ToLower(m[1]), start: start, end: off})
		return append(open, openMkdocs{&c.admonitions, len(c.admonitions) - 1})
	}
	if m := mkdocsTabRe.FindStringSubmatch(line); m != nil {
		c.blank(markupTab, start, start+len(line))
		c.tabs = append(c.tabs, admonition{kind: "tab", title: tabTitle(`"` + m[1] + `"`), start: start, end: off})
		return append(open, openMkdocs{&c.tabs, len(c.tabs) - 1})
	}
	return open
}

// listContext follows the list items of a body's top level, for
// admonitions opened in one: Python-Markdown reads a list item's content
// indented four spaces, and a title line there is the admonition's, where
// outside a list it would be indented code.
type listContext struct{ content int } // the open item's content indentation; 0: none

var listItemRe = regexp.MustCompile(`^( {0,3})(?:[-*+]|[0-9]{1,9}[.)])( +)\S`)

// line reads line and returns the indentation of the list item content it
// is in (a multiple of four), or 0 when it is in none or opens an item.
func (l *listContext) line(line string) int {
	t := strings.TrimLeft(line, " ")
	if t == "" {
		return 0 // a blank line closes nothing
	}
	indent := len(line) - len(t)
	if indent <= 3 && strings.ContainsRune("-*+0123456789", rune(t[0])) { // what listItemRe can match
		if m := listItemRe.FindStringSubmatch(line); m != nil {
			l.content = len(m[1]) + 4 // Python-Markdown's, whatever the marker's width
			return 0
		}
	}
	if l.content == 0 || indent < l.content {
		l.content = 0 // a line back at the left ends the list
		return 0
	}
	if indent%4 != 0 {
		return 0
	}
	return indent
}

// maySpanLine reports whether line starts as an admonition fence or title
// or an MDX line can: the expressions that read those run only when it does.
func maySpanLine(line string) bool {
	switch {
	case strings.HasPrefix(line, "!!!"), strings.HasPrefix(line, "???"), strings.HasPrefix(line, "==="), // bangAdmonitionRe, mkdocsTabRe
		strings.HasPrefix(strings.TrimLeft(line, " "), ":::"),                // colonAdmonitionRe
		strings.HasPrefix(line, "import"), strings.HasPrefix(line, "export"): // mdxLineRe
		return true
	}
	return false
}

// codeRanges are the byte ranges of fenced code blocks (fences included)
// and of inline code spans: markup there is the code's.
func codeRanges(body string) (fenced, inline [][2]int) {
	off := 0
	fence, fenceStart := "", 0
	for l := range strings.Lines(body) {
		start := off
		off += len(l)
		t := strings.TrimLeft(l, " \t")
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(strings.TrimSpace(t), fence[:1]) == "" {
				fenced = append(fenced, [2]int{fenceStart, off})
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			mark := t[:1]
			n := len(t) - len(strings.TrimLeft(t, mark))
			fence, fenceStart = strings.Repeat(mark, n), start
			continue
		}
		inline = append(inline, inlineCode(l, start)...)
	}
	if fence != "" {
		fenced = append(fenced, [2]int{fenceStart, len(body)})
	}
	return fenced, inline
}

// inlineCode finds `code` spans on one line: a run of backticks up to the
// next run of the same length.
func inlineCode(line string, base int) [][2]int {
	var out [][2]int
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(line) && line[i+n] == '`' {
			n++
		}
		closeAt := -1
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(line) && line[j+m] == '`' {
				m++
			}
			if m == n {
				closeAt = j + m
				break
			}
			j += m
		}
		if closeAt < 0 {
			i += n
			continue
		}
		out = append(out, [2]int{base + i, base + closeAt})
		i = closeAt
	}
	return out
}

// cursor tells whether offsets, asked in increasing order, fall in one of
// rs, which are sorted and do not overlap: a walk along rs, not a search.
type cursor struct {
	rs [][2]int
	k  int // rs[:k] end at or before the last offset asked
}

func (c *cursor) in(at int) bool {
	for c.k < len(c.rs) && c.rs[c.k][1] <= at {
		c.k++
	}
	return c.k < len(c.rs) && c.rs[c.k][0] <= at
}
