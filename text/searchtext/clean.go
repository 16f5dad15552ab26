package searchtext

import (
	"regexp"
	"strconv"
	"strings"
)

// Clean is a chunk's text as a reader of the rendered page sees it: the
// text the embedder reads and BM25 indexes (Of), while the stored
// text stays verbatim. Outside code (fenced blocks and inline code spans,
// which stay as written, fences included) it removes
//   - a link's or an image's target: "[text](target)", "![alt](src)" and a
//     reference link "[text][ref]" read "text" and "alt";
//   - a heading's hashes: "### Install" reads "Install";
//   - attribute lists: "{#id}", "{ #id .class }", "{: .class }";
//   - block markers a format left: PyMdown Blocks' "/// note | Title" and
//     its closing "///", an admonition's "!!! tip \"Title\"", a content
//     tab's `=== "Title"`, a ":::" directive's colons, each line keeping
//     its title (a reader sees it) and losing the marker and the type;
//   - include directives left unresolved: "--8<-- \"file\"",
//     "{% include … %}", "{* file *}", "{!file!}", Hugo's include and
//     readfile shortcodes, an MDX raw-loader import line.
//
// Inside a console fence (console, shell, bash, text, or no language) it
// removes the HTML styling tags a site renders a terminal with (<font>,
// <span>, <b>, <strong>, <i>, <em>, <u>): the reader sees the words they
// colour. A line that held only markup goes; other lines keep their place.
func Clean(text string) string {
	if !strings.ContainsAny(text, "[#{/!?:=-<`~") {
		return text // nothing it could remove: most prose
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	fence, console, para := "", false, -1 // para: where the paragraph being read starts in lines
	for i, line := range lines {
		t := strings.TrimLeft(line, " \t")
		opens := fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"))
		if para >= 0 && (opens || strings.TrimSpace(line) == "") {
			out = append(out, cleanParagraph(lines[para:i])...)
			para = -1
		}
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(strings.TrimSpace(t), fence[:1]) == "" {
				fence = ""
			} else if console {
				line = stylingTagRe.ReplaceAllString(line, "")
			}
		case opens:
			fence = t[:len(t)-len(strings.TrimLeft(t, t[:1]))]
			console = consoleFence(strings.TrimSpace(t[len(fence):]))
		case strings.TrimSpace(line) != "":
			if para < 0 {
				para = i
			}
			continue
		}
		out = append(out, line)
	}
	if para >= 0 {
		out = append(out, cleanParagraph(lines[para:])...)
	}
	return strings.Join(out, "\n")
}

// cleanParagraph cleans the lines of a paragraph outside fenced code: each
// line's block marker or heading, then the paragraph's inline markup as a
// whole, since a link's text may run over lines. A line left with nothing
// held only markup: it goes. Inline code spans are kept as written: each
// is masked while the rest is cleaned, so a link's text may hold one
// ("[`otelcol`](…)" reads "`otelcol`").
func cleanParagraph(lines []string) []string {
	kept := make([]string, 0, len(lines))
	for _, line := range lines {
		if m := blockMarkerLineRe.FindStringSubmatch(line); m != nil {
			line = m[1] + blockTitle(m[2])
		} else if m := headingRe.FindStringSubmatch(line); m != nil {
			line = m[1] + closingHashesRe.ReplaceAllString(removeAttrLists(m[2]), "")
		}
		if strings.TrimSpace(line) != "" {
			kept = append(kept, line)
		}
	}
	p := strings.Join(kept, "\n")
	switch {
	case !strings.Contains(p, "`"):
		p = cleanProse(p)
	case !strings.ContainsRune(p, spanMark): // the mask's own character: left as written rather than guessed at
		masked, spans := maskSpans(p)
		p = unmask(cleanProse(masked), spans)
	}
	kept = kept[:0]
	for _, line := range strings.Split(p, "\n") {
		if strings.TrimSpace(line) != "" {
			kept = append(kept, line)
		}
	}
	return kept
}

// consoleFence reports whether a fence's info string names a terminal's
// output (or nothing): where HTML tags are a site's styling, not code.
func consoleFence(info string) bool {
	lang, _, _ := strings.Cut(strings.TrimLeft(info, "{."), " ")
	switch strings.ToLower(strings.TrimRight(lang, "}")) {
	case "", "console", "shell-session", "sh-session", "terminal", "term", "shell", "bash", "sh", "zsh", "text", "txt", "plaintext", "output":
		return true
	}
	return false
}

// stylingTagRe is an HTML tag that only styles a terminal's text.
var stylingTagRe = regexp.MustCompile(`(?i)</?(?:font|span|b|strong|i|em|u)(?:\s[^<>\n]*)?>`)

// unmask puts the code spans maskSpans took back in their places.
func unmask(masked string, spans []string) string {
	var out strings.Builder
	for {
		i := strings.IndexRune(masked, spanMark)
		if i < 0 {
			out.WriteString(masked)
			return out.String()
		}
		out.WriteString(masked[:i])
		masked = masked[i+len(string(spanMark)):]
		j := strings.IndexRune(masked, spanMark)
		n, err := strconv.Atoi(masked[:max(j, 0)])
		if j < 0 || err != nil || n >= len(spans) { // a mark a rule cut in two: never, but never a panic
			out.WriteString(masked)
			return out.String()
		}
		out.WriteString(spans[n])
		masked = masked[j+len(string(spanMark)):]
	}
}

// spanMark brackets the number of a masked code span: a private-use
// character, which no cleaning rule reads.
const spanMark = '\uE000'

// maskSpans replaces each inline code span of a paragraph (a run of
// backticks up to the next run exactly as long) by its number between two
// spanMarks; a run without its match is literal.
func maskSpans(line string) (string, []string) {
	var out strings.Builder
	var spans []string
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			out.WriteString(line)
			return out.String(), spans
		}
		n := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
		end := -1
		for j := i + n; j < len(line); {
			if line[j] != '`' {
				j++
				continue
			}
			m := len(line[j:]) - len(strings.TrimLeft(line[j:], "`"))
			if m == n {
				end = j + n
				break
			}
			j += m
		}
		if end < 0 {
			out.WriteString(line[:i+n])
			line = line[i+n:]
			continue
		}
		out.WriteString(line[:i])
		out.WriteRune(spanMark)
		out.WriteString(strconv.Itoa(len(spans)))
		out.WriteRune(spanMark)
		spans = append(spans, line[i:end])
		line = line[end:]
	}
}

var (
	// headingRe is an ATX heading: its hashes out, its words kept.
	headingRe       = regexp.MustCompile(`^([ \t]{0,3})#{1,6}(?:[ \t]+(.*))?$`)
	closingHashesRe = regexp.MustCompile(`[ \t]+#+[ \t]*$`)
	// blockMarkerLineRe is a line that opens or closes a block: PyMdown
	// Blocks ("/// type | title", "///"), an admonition ("!!! type
	// \"title\"", "???+ type"), a content tab (`=== "title"`), a ":::"
	// directive or container.
	blockMarkerLineRe = regexp.MustCompile(`^([ \t]*)(?:/{3,}|!!!|\?\?\?\+?|===\+?|:{3,})(.*)$`)
	// attrListRe is an attribute list, with the space before it.
	attrListRe = regexp.MustCompile(`[ \t]*\{[ \t]*(?::[ \t]*)?[#.][\w-][^{}\n]*\}`)
	// includeRe is an include directive as written.
	includeRe = regexp.MustCompile(`-+8<-+[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^ \t\n]*)|\{%-?[ \t]*include(?:-markdown)?\b[^\n]*?%\}|\{\*[ \t][^\n]*?\*\}|\{![^\n]*?!\}|\{\{[<%]-?[ \t]*(?:include|readfile)\b[^\n]*?[>%]\}\}|(?m:^[ \t]*import[ \t][^\n]*!!raw-loader![^\n]*$)`)
)

// blockTitle is the title of a block marker's rest: after "|" for PyMdown
// Blocks ("note | Title"), quoted for an admonition or a tab ("tip
// \"Title\"", "\"Tab\""), the words after a type glued to the marker
// (":::tip Title"), else the words ("::: package.module", "!!! note": the
// type, which a site shows as the title).
func blockTitle(rest string) string {
	glued := rest != "" && rest[0] != ' ' && rest[0] != '\t'
	rest = strings.TrimSpace(rest)
	if _, title, ok := strings.Cut(rest, "|"); ok {
		return strings.TrimSpace(title)
	}
	if i := strings.IndexByte(rest, '"'); i >= 0 {
		if j := strings.LastIndexByte(rest, '"'); j > i {
			return rest[i+1 : j]
		}
	}
	if glued { // ":::tip Title": the type glued to the colons
		_, title, _ := strings.Cut(rest, " ")
		return strings.TrimSpace(title)
	}
	return rest
}

// cleanProse cleans a run of text that holds no code span.
func cleanProse(s string) string {
	if strings.ContainsAny(s, "{<!") {
		s = includeRe.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "{") {
		s = removeAttrLists(s)
	}
	if strings.Contains(s, "](") || strings.Contains(s, "][") {
		s = unlink(s)
	}
	return s
}

// removeAttrLists removes attribute lists, but not a template's
// "{{ .Values.x }}", whose braces come doubled.
func removeAttrLists(s string) string {
	return replaceFunc(attrListRe, s, func(start, end int) bool {
		open := start + strings.IndexByte(s[start:end], '{')
		return (open == 0 || s[open-1] != '{') && (end == len(s) || s[end] != '}')
	})
}

// replaceFunc removes the matches of re in s that keep says to remove.
func replaceFunc(re *regexp.Regexp, s string, keep func(start, end int) bool) string {
	var out strings.Builder
	last := 0
	for _, loc := range re.FindAllStringIndex(s, -1) {
		if keep(loc[0], loc[1]) {
			out.WriteString(s[last:loc[0]])
			last = loc[1]
		}
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// unlink replaces each link and image by its text: "[text](target)",
// "![alt](src \"title\")", "[text][ref]". Brackets nest ("[![badge](img)](url)"
// reads "badge"); a bracket that opens no link stays.
func unlink(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '[' {
			out = append(out, s[i])
			i++
			continue
		}
		close := matching(s, i, '[', ']')
		if close < 0 || close+1 >= len(s) || (s[close+1] != '(' && s[close+1] != '[') {
			out = append(out, s[i])
			i++
			continue
		}
		closer := byte(')')
		if s[close+1] == '[' {
			closer = ']'
		}
		end := matching(s, close+1, s[close+1], closer)
		if end < 0 {
			out = append(out, s[i])
			i++
			continue
		}
		if len(out) > 0 && out[len(out)-1] == '!' { // an image: its "!" goes with its source
			out = out[:len(out)-1]
		}
		out = append(out, unlink(s[i+1:close])...)
		i = end + 1
	}
	return string(out)
}

// matching is the index of the bracket that closes the one at s[i], nested
// brackets counted, or -1 when none does on the line.
func matching(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}
