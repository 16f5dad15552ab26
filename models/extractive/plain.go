package extractive

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/text/sentence"
)

// plainProse is Markdown prose as a reader sees it, for the header's
// sentence: quote markers, GitHub and Obsidian callout markers ("[!NOTE]",
// a callout's title read as a title: "Access note: You must…") and list
// markers at line starts removed, links and images read as their text (an
// autolink as its address), footnote markers removed, strong emphasis
// unmarked, entities and backslash escapes read as the characters they
// stand for outside inline code, lines joined. The chunk's text itself
// stays verbatim.
func plainProse(text string) string {
	// A header quotes one sentence, capped: the start of the chunk is
	// enough, however long the chunk.
	if len(text) > plainProseBytes {
		cut := plainProseBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			lines = lines[:i] // code is not a sentence
			break
		}
		if isHeading(l) || i+1 < len(lines) && l != "" && isUnderline(strings.TrimSpace(lines[i+1])) || isUnderline(l) {
			lines[i] = "" // a heading (a chunk that runs into the next section holds its line) is the section path's
			continue
		}
		for strings.HasPrefix(l, ">") {
			l = strings.TrimSpace(l[1:])
		}
		if strings.HasPrefix(l, "[!") {
			if m := calloutMarker.FindString(l); m != "" {
				l = calloutTitle(strings.TrimSpace(l[len(m):]), lines[i+1:])
			}
		}
		if strings.HasPrefix(l, "[^") {
			l = strings.TrimSpace(footnoteDef.ReplaceAllString(l, ""))
		}
		lines[i] = strings.TrimLeft(l[sentence.MarkerLen(l):], " \t")
	}
	s := strings.Join(lines, " ")
	if strings.Contains(s, "[^") {
		s = footnoteRef.ReplaceAllString(s, "")
	}
	if strings.Contains(s, "](") {
		s = mdLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "][") {
		s = refLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "<") {
		s = autoLink.ReplaceAllString(s, "$1")
	}
	s = outsideCode(emphasis.Replace(s), asRead)
	return strings.Join(strings.Fields(s), " ")
}

// calloutTitle is what a callout's marker line says after its marker: its
// title, which a reader sees set apart from the words under it, so it is
// joined to them by a colon ("Important access note: You must…"), unless
// it is all the callout says or ends a sentence itself.
func calloutTitle(title string, rest []string) string {
	if title == "" || strings.ContainsAny(title[len(title)-1:], ".:!?") {
		return title
	}
	for _, l := range rest {
		if strings.Trim(l, "> \t") != "" {
			return title + ":"
		}
	}
	return title
}

// outsideCode applies f to the parts of s outside inline code spans, whose
// text is literal (`{{ "\n" -}}` keeps its backslash).
func outsideCode(s string, f func(string) string) string {
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = f(parts[i])
	}
	return strings.Join(parts, "`")
}

// asRead is prose with its character references ("&mdash;") and backslash
// escapes ("straightforward\!") read as the characters a reader sees.
func asRead(s string) string {
	if strings.Contains(s, "\\") {
		s = backslashEscape.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "&") {
		s = html.UnescapeString(s)
	}
	return s
}

// plainProseBytes is how much of a chunk the header's sentence is read
// from: five times the longest header (200 characters by default).
const plainProseBytes = 1024

var emphasis = strings.NewReplacer("**", "", "__", "")

var (
	calloutMarker = regexp.MustCompile(`^\[![A-Za-z]+\][+-]?`)
	autoLink      = regexp.MustCompile(`<((?:https?|mailto):[^>\s]+)>`)
	mdLink        = regexp.MustCompile(`!?\[([^\]\n]*)\]\((?:<[^>\n]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\)`)
	refLink       = regexp.MustCompile(`\[([^\]\n]+)\]\[[^\]\n]*\]`)
	// A footnote's marker ("[^1]") is a superscript to a reader, and its
	// definition's label ("[^1]:") is not read as words either.
	footnoteRef = regexp.MustCompile(` ?\[\^[^\]\s]+\]`)
	footnoteDef = regexp.MustCompile(`^\[\^[^\]\s]+\]:`)
	// A backslash before ASCII punctuation is Markdown's escape; a reader
	// sees the punctuation alone.
	backslashEscape = regexp.MustCompile(`\\([!-/:-@\[-_{-~])`)
)

// isHeading reports an ATX heading line ("## Setup"); "#1" and "#hashtag"
// are words.
func isHeading(l string) bool {
	n := 0
	for n < len(l) && n < 6 && l[n] == '#' {
		n++
	}
	return n > 0 && (n == len(l) || l[n] == ' ' || l[n] == '\t')
}

// isUnderline reports a setext heading underline or a rule: "---", "===".
func isUnderline(l string) bool {
	return len(l) >= 3 && (strings.Trim(l, "-") == "" || strings.Trim(l, "=") == "")
}
