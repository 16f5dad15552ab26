package diff

import (
	"strings"
	"unicode/utf8"
)

const (
	// excerptRunes is how much of a text a diff shows: two lines of a
	// pull-request comment, enough to recognise a paragraph.
	excerptRunes = 160
	// excerptLead is how much common text is kept before the first
	// difference of an edited chunk, so the excerpt shows the edit.
	excerptLead = 40
)

// excerpt is s on one line, cut at a word end near excerptRunes.
func excerpt(s string) string {
	return truncateRunes(strings.Join(strings.Fields(s), " "), excerptRunes)
}

// excerptPair returns the excerpts of an edited text before and after. When
// the edit is far into the text, both start shortly before it, at the same
// word, so the excerpts show what changed rather than the same opening twice.
func excerptPair(before, after string) (string, string) {
	a, b := strings.Join(strings.Fields(before), " "), strings.Join(strings.Fields(after), " ")
	ra, rb := []rune(a), []rune(b)
	p := 0
	for p < len(ra) && p < len(rb) && ra[p] == rb[p] {
		p++
	}
	if p > excerptLead+len("…") {
		start := p - excerptLead
		for start < p && ra[start-1] != ' ' { // start on a word
			start++
		}
		if start < p {
			a, b = "…"+string(ra[start:]), "…"+string(rb[start:])
		}
	}
	return truncateRunes(a, excerptRunes), truncateRunes(b, excerptRunes)
}

// truncateRunes cuts s to at most n runes, at the last space in the final
// fifth if there is one, and marks the cut with an ellipsis.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	if k := strings.LastIndexByte(string(r), ' '); k > 0 && utf8.RuneCountInString(string(r)[:k]) > n*4/5 {
		return strings.TrimRight(string(r)[:k], " ,;:") + "…"
	}
	return string(r) + "…"
}
