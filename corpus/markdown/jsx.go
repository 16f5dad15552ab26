package markdown

import (
	"strings"
)

// MDX pages (Docusaurus, Next.js, Nextra, Astro) mix Markdown with JSX
// components: <ReleaseTable />, <Callout type="warning">…</Callout>,
// <Tabs><TabItem label="npm">…</TabItem></Tabs>. A component's tags are
// markup; the text between them is prose. In an .mdx page every
// capitalised tag is a component; in a Markdown page (Docusaurus reads .md
// as MDX too) only Tabs and TabItem are, since "List<String>" in prose is
// words. MDX has no indented code, and authors indent a component's
// children: the children move left by the indentation of the first of
// them, so "    ```bash" under <TabItem> is a fence, not indented code.

// markupJSX counts the components removed, as report.json does.
const markupJSX = "jsx_component"

// jsxScanLimit bounds how far a tag is read for its closing ">": a tag is
// a name and a few attributes, and a bound keeps a page of "<A<A<A…" from
// costing a scan to its end per "<".
const jsxScanLimit = 4096

// jsxTag is one tag of a component in a body.
type jsxTag struct {
	name        string
	start, end  int
	closing     bool // </Name>
	selfClosing bool // <Name />
	attrs       string
}

// jsx blanks the component tags of body (outside code), records the tabs
// that TabItem elements make, and the shifts that move their children's
// lines left.
func (c *cleaned) jsx(body string, protected [][2]int, mdx bool) {
	if mdx {
		c.mdxComments(body, protected)
	}
	if !strings.Contains(body, "<") {
		return
	}
	tags := jsxTags(body, protected, mdx)
	if len(tags) == 0 {
		return
	}
	type open struct {
		tag  jsxTag
		tab  int // its index in c.tabs when it is a TabItem, else -1
		base int // the indentation of its first child line (-1: none yet)
	}
	var stack []open
	t := 0
	for ls := 0; ls < len(body); {
		le := lineEnd(body, ls)
		// A line after the innermost open element's tag is its child (a
		// line of tags only is blank by now, and moving it changes nothing).
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.tag.end <= ls {
				line := body[ls:le]
				if ind := len(line) - len(strings.TrimLeft(line, " ")); ind < len(line) {
					if top.base < 0 {
						top.base = ind
					}
					if n := min(ind, top.base); n > 0 {
						c.shifts = append(c.shifts, shift{ls, le, n})
					}
				}
			}
		}
		for t < len(tags) && tags[t].start <= le {
			tg := tags[t]
			t++
			c.blank(markupJSX, tg.start, tg.end)
			switch {
			case tg.closing:
				c.counts[markupJSX]-- // one component, counted at its opening
				for k := len(stack) - 1; k >= 0; k-- {
					if stack[k].tag.name == tg.name {
						if i := stack[k].tab; i >= 0 {
							c.tabs[i].end = tg.start
						}
						stack = stack[:k]
						break
					}
				}
			case tg.selfClosing:
			default:
				o := open{tag: tg, tab: -1, base: -1}
				if tg.name == "TabItem" {
					title := attr(tg.attrs, "label")
					if title == "" {
						title = attr(tg.attrs, "value")
					}
					c.tabs = append(c.tabs, admonition{kind: "tab", title: title, start: tg.end, end: len(body)})
					o.tab = len(c.tabs) - 1
				}
				stack = append(stack, o)
			}
		}
		ls = le + 1
	}
}

// mdxComments blanks MDX's comments, {/* … */}, outside code.
func (c *cleaned) mdxComments(body string, protected [][2]int) {
	code := cursor{rs: protected}
	for pos := 0; ; {
		i := strings.Index(body[pos:], "{/*")
		if i < 0 {
			return
		}
		i += pos
		j := strings.Index(body[i+3:], "*/}")
		if j < 0 {
			return
		}
		end := i + 3 + j + 3
		if !code.in(i) && !c.removed[i] {
			c.blank(markupComment, i, end)
		}
		pos = end
	}
}

// jsxTags finds the component tags of body outside the protected ranges,
// in order.
func jsxTags(body string, protected [][2]int, any bool) []jsxTag {
	var out []jsxTag
	code := cursor{rs: protected}
	var closers map[string]bool // in a Markdown page: the names that close somewhere
	opened := map[string]bool{}
	for i := 0; i < len(body); i++ {
		if body[i] != '<' || i+1 >= len(body) {
			continue
		}
		j, closing := i+1, false
		if body[j] == '/' {
			j, closing = j+1, true
		}
		if j >= len(body) || body[j] < 'A' || body[j] > 'Z' {
			continue
		}
		k := j
		for k < len(body) && (isNameByte(body[k])) {
			k++
		}
		name := body[j:k]
		if code.in(i) {
			continue
		}
		end, ok := tagEnd(body, k)
		if !ok {
			continue
		}
		tg := jsxTag{name: name, start: i, end: end, closing: closing, selfClosing: body[end-2] == '/', attrs: body[k : end-1]}
		if !any && name != "Tabs" && name != "TabItem" {
			if closers == nil {
				closers = closingNames(body)
			}
			if !componentLike(tg, closers, opened) {
				continue
			}
		}
		if !closing {
			opened[name] = true
		}
		out = append(out, tg)
		i = end - 1
	}
	return out
}

// componentLike reports whether a capitalised tag in a Markdown page is
// written as a component, not words: self-closing (<RunSnippet
// command="x"/>), with an attribute (<GlossaryTooltip term="x">), or one of
// a pair (<Card>…</Card>) — OPA's Docusaurus pages are .md read as MDX.
// "List<String>" in prose is none of these.
func componentLike(tg jsxTag, closers, opened map[string]bool) bool {
	switch {
	case tg.closing:
		return opened[tg.name]
	case tg.selfClosing, strings.Contains(tg.attrs, "="):
		return true
	}
	return closers[tg.name]
}

// closingNames are the names of the closing tags "</Name>" in body.
func closingNames(body string) map[string]bool {
	names := map[string]bool{}
	for i := 0; ; {
		k := strings.Index(body[i:], "</")
		if k < 0 {
			return names
		}
		j := i + k + 2
		e := j
		for e < len(body) && isNameByte(body[e]) {
			e++
		}
		if e > j && e < len(body) && body[e] == '>' && body[j] >= 'A' && body[j] <= 'Z' {
			names[body[j:e]] = true
		}
		i = j
	}
}

func isNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '.' || b == '_' || b == '-' || b == ':'
}

// tagEnd is the offset just past the ">" that closes a tag whose name ends
// at i: the first ">" outside quotes and braces ({() => a > b}), read at
// most jsxScanLimit bytes.
func tagEnd(body string, i int) (int, bool) {
	if i < len(body) && body[i] != ' ' && body[i] != '\t' && body[i] != '\n' && body[i] != '>' && body[i] != '/' {
		return 0, false // "<Foo+" is no tag
	}
	depth, quote := 0, byte(0)
	for k := i; k < len(body) && k < i+jsxScanLimit; k++ {
		b := body[k]
		switch {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'' || b == '`':
			quote = b
		case b == '{':
			depth++
		case b == '}':
			depth--
		case b == '>' && depth <= 0:
			return k + 1, true
		case b == '<' && depth <= 0:
			return 0, false // another tag opens first: this was text
		}
	}
	return 0, false
}

// attr is the value of a tag's attribute name="value" (or 'value'), "" when
// it has none.
func attr(attrs, name string) string {
	for rest := attrs; ; {
		i := strings.Index(rest, name+"=")
		if i < 0 {
			return ""
		}
		if i > 0 && isNameByte(rest[i-1]) {
			rest = rest[i+len(name)+1:]
			continue
		}
		v := rest[i+len(name)+1:]
		if v != "" && (v[0] == '"' || v[0] == '\'') {
			return tabTitle(v)
		}
		return ""
	}
}
