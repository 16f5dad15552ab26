package chunking

import (
	"regexp"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// MarkupUnknownBlock counts, in Body.Markup, the block markers a format
// blanked without knowing what they stand for (a PyMdown Blocks kind of a
// site's own, a closing fence that closes nothing): counted, so a site's
// markup is never dropped or left silently.
const MarkupUnknownBlock = "unknown_block"

// Debris is the site markup a reader never sees, left in chunks: what a
// format that does not know a site's extensions leaves behind. Each figure
// should be 0 on a site whose extensions the formats read.
type Debris struct {
	// MarkerStart counts chunks whose text (not code) or header opens with
	// an admonition or tab marker: "///", "!!!", "???", ":::", `=== "`.
	MarkerStart int
	// AttrInPath counts chunks whose title or section path holds an
	// attribute list ("{#id}", "{ #id }", "{: .class }").
	AttrInPath int
	// AttrInText counts chunks that are not code holding one in their text.
	AttrInText int
	// RawInclude counts chunks that are not code holding an include
	// marker ("--8<--", "{% include", "{* file *}", "{!file!}", Hugo's
	// include and readfile, MDX's raw-loader import): an include resolved
	// leaves its file's text, one that could not be leaves a diagnostic.
	RawInclude int
	// IncludeInCode counts chunks holding an include marker inside code: a
	// directive in a fence whose file was not found stays there as written
	// (with its diagnostic), the code's line kept. Not debris of the
	// format's (not in Total), but code a reader does not get.
	IncludeInCode int
	// DirectiveCode counts code chunks that are a mkdocstrings directive's
	// options (indented YAML under "::: module") read as code.
	DirectiveCode int
	// UnknownBlocks sums the documents' MarkupUnknownBlock counts.
	UnknownBlocks int
}

// The expressions below are the judge's own, not the formats' (corpus.AttrList,
// the Markdown cleaner's): a figure that shared the cleaner's rule could not
// see what the rule misses.
var (
	// blockMarkerRe opens a PyMdown block, an admonition (Python-Markdown's,
	// collapsible or not), a Docusaurus admonition or mkdocstrings
	// directive, or a Material content tab.
	blockMarkerRe = regexp.MustCompile(`^(?:/{3,}|!!!|\?\?\?\+?|:{3,}|===\+? ")`)
	// includeMarkerRe is an include directive of any site generator ingest
	// reads, as written. A snippet's scissors are followed by a space or the
	// line's end: "<---8<--->" in a log printed in the docs (OPA's
	// rest-api.md) is a cut mark, not an include.
	includeMarkerRe = regexp.MustCompile(`(?m)-+8<-+(?:[ \t]|$)|\{%-?\s*include|\{\*\s[^\n]*\*\}|\{![^\n]*!\}|\{\{[<%]-?\s*(?:include|readfile)\b|!!raw-loader!`)
	// attrListRe is an attribute list: a brace, then an id, a class or
	// attr_list's colon (attrList checks it is not a template's "{{ .X }}").
	attrListRe = regexp.MustCompile(`\{[ \t]*(?::[ \t]*)?[#.][\w-][^{}\n]*\}`)
	// directiveOptionRe is a line of a mkdocstrings directive's options:
	// the block's keys, or options no YAML but mkdocstrings' writes.
	directiveOptionRe = regexp.MustCompile(`(?m)^[ \t]*(?:(?:options|handler|selection|rendering):[ \t]*$|(?:show_root_heading|show_source|heading_level|show_if_no_docstring|docstring_style):)`)
)

// add counts one chunk's debris (quoted: what its header says past its
// location) and names what it found. Markup inside code (a fence, an inline
// span) is the code's: "{#id}" in backticks documents the syntax.
func (d *Debris) add(ch schema.Chunk, quoted string) (what []string) {
	code := ch.Element == schema.ElementCodeBlock
	if !code && blockMarkerRe.MatchString(strings.TrimLeft(ch.Text, " \t\n>")) || blockMarkerRe.MatchString(strings.TrimLeft(quoted, " ")) {
		d.MarkerStart++
		what = append(what, "starts with a block marker")
	}
	if attrList(withoutCode(ch.DocTitle)) || slices.ContainsFunc(ch.SectionPath, func(s string) bool { return attrList(withoutCode(s)) }) {
		d.AttrInPath++
		what = append(what, "attribute list in its path")
	}
	prose := ""
	if !code {
		prose = withoutCode(ch.Text)
	}
	if attrList(prose) {
		d.AttrInText++
		what = append(what, "attribute list in its text")
	}
	switch {
	case includeMarkerRe.MatchString(prose):
		d.RawInclude++
		what = append(what, "include marker in its text")
	case includeMarkerRe.MatchString(ch.Text):
		d.IncludeInCode++
		what = append(what, "include marker in its code")
	}
	if code && !fenceLineRe.MatchString(ch.Text) && directiveOptionRe.MatchString(ch.Text) {
		d.DirectiveCode++
		what = append(what, "directive options as code")
	}
	return what
}

// Total is the sum of the figures: 0 on a clean corpus.
func (d Debris) Total() int {
	return d.MarkerStart + d.AttrInPath + d.AttrInText + d.RawInclude + d.DirectiveCode + d.UnknownBlocks
}

// attrList reports whether s holds an attribute list: not a template's
// "{{ .Values.x }}", whose braces come doubled.
func attrList(s string) bool {
	if !strings.Contains(s, "{") {
		return false
	}
	for _, loc := range attrListRe.FindAllStringIndex(s, -1) {
		if (loc[0] == 0 || s[loc[0]-1] != '{') && (loc[1] == len(s) || s[loc[1]] != '}') {
			return true
		}
	}
	return false
}

// fenceLineRe is a code fence's line.
var fenceLineRe = regexp.MustCompile("(?m)^[ \t]*(?:```|~~~)")

// withoutCode is text without its fenced blocks (fences included) and its
// inline code spans: the words and markup a reader sees as text.
func withoutCode(text string) string {
	if !strings.ContainsAny(text, "`~") {
		return text
	}
	var out strings.Builder
	fence := ""
	for l := range strings.Lines(text) {
		t := strings.TrimLeft(l, " \t")
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(strings.TrimSpace(t), fence[:1]) == "" {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
		default:
			out.WriteString(withoutSpans(l))
		}
	}
	return out.String()
}

// withoutSpans is a line without its inline code spans: a run of backticks
// up to the next run exactly as long; a run without one is literal.
func withoutSpans(l string) string {
	var out strings.Builder
	for {
		i := strings.IndexByte(l, '`')
		if i < 0 {
			out.WriteString(l)
			return out.String()
		}
		n := backticks(l[i:])
		end := -1
		for j := i + n; j < len(l); {
			if l[j] != '`' {
				j++
				continue
			}
			m := backticks(l[j:])
			if m == n {
				end = j
				break
			}
			j += m
		}
		if end < 0 {
			out.WriteString(l[:i+n])
		} else {
			out.WriteString(l[:i])
			n = end + n - i
		}
		l = l[i+n:]
	}
}

// backticks is the length of the run of backticks s starts with.
func backticks(s string) int { return len(s) - len(strings.TrimLeft(s, "`")) }
