package extractive

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/text/sentence"
)

// plainProse is Markdown prose as a reader sees it, for the header's
// sentence: quote markers, GitHub and Obsidian callout markers ("[!NOTE]")
// and list markers at line starts removed, links and images read as their
// text (an autolink as its address), strong emphasis unmarked, lines joined. The chunk's text itself
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
				l = strings.TrimSpace(l[len(m):])
			}
		}
		lines[i] = strings.TrimLeft(l[sentence.MarkerLen(l):], " \t")
	}
	s := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	if strings.Contains(s, "](") {
		s = mdLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "][") {
		s = refLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "<") {
		s = autoLink.ReplaceAllString(s, "$1")
	}
	return emphasis.Replace(s)
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
