package thresholds

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentenceAround returns the bounds of the sentence holding text[start:end].
// A sentence ends at ".", "!" or "?" followed by white space (so "1.5" and
// "a.m." do not end one), at a blank line, or at a line that opens a list
// item, heading, quote or table row; a single line break is a soft wrap,
// unless hardBreaks (a table row rendered one cell per line).
func sentenceAround(text string, start, end int, hardBreaks bool) (int, int) {
	s := 0
	for i := start - 1; i >= 0; i-- {
		if text[i] == '\n' && (hardBreaks || blockBreak(text, i)) {
			s = i + 1
			break
		}
		if isStop(text[i]) && i+1 < start && isSpaceByte(text[i+1]) && !abbreviation(text[:i]) {
			s = i + 1
			break
		}
	}
	e := len(text)
	for j := end; j < len(text); j++ {
		if text[j] == '\n' && (hardBreaks || blockBreak(text, j)) {
			e = j
			break
		}
		if isStop(text[j]) && (j+1 == len(text) || isSpaceByte(text[j+1])) && !abbreviation(text[:j]) {
			e = j + 1
			break
		}
	}
	return s, e
}

func isStop(b byte) bool { return b == '.' || b == '!' || b == '?' }

func isSpaceByte(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// blockBreak reports whether the line break at text[i] ends a block: a blank
// line follows, or a line opening a list item, heading, quote or table row.
func blockBreak(text string, i int) bool {
	rest := strings.TrimLeft(text[i+1:], " \t")
	if rest == "" || rest[0] == '\n' || (i > 0 && text[i-1] == '\n') {
		return true
	}
	return listMarkerLen(rest) > 0 || strings.ContainsRune("#>|", rune(rest[0]))
}

// listMarkerLen is the length of a list marker ("- ", "* ", "12. ", "3) ")
// at the start of s, or 0.
func listMarkerLen(s string) int {
	if len(s) >= 2 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ' {
		return 2
	}
	i := 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return i + 2
	}
	return 0
}

// abbreviations end in a dot without ending the sentence.
var abbreviations = []string{
	"approx", "aprox", "e.g", "i.e", "ca", "vs", "a.m", "p.m", "dr", "sr", "sra", "st", "no", "nº",
}

// abbreviation reports whether text (up to, not including, a dot) ends
// with an abbreviation or a lone initial.
func abbreviation(text string) bool {
	lower := strings.ToLower(text[max(0, len(text)-8):])
	for _, a := range abbreviations {
		if endsWithWord(lower, a) {
			return true
		}
	}
	return false
}

// cleanSentence trims a sentence for display: white space collapsed, a
// leading list, heading or quote marker dropped.
func cleanSentence(s string) string {
	s = strings.TrimSpace(collapseSpaces(s))
	for {
		switch {
		case strings.HasPrefix(s, "#"), strings.HasPrefix(s, ">"):
			s = strings.TrimSpace(strings.TrimLeft(s, "#>"))
			continue
		case listMarkerLen(s) > 0:
			s = strings.TrimSpace(s[listMarkerLen(s):])
			continue
		}
		return s
	}
}

// hazardWords open a hazard phrase; the first in the sentence wins.
var hazardWords = []string{
	"dangerous", "danger", "hazardous", "hazard", "risk", "risky", "unsafe", "hypothermia",
	"cold shock", "drowning", "drown", "exhaustion", "heatstroke", "heat stroke",
	"not recommended", "unsuitable", "experienced surfers", "experienced swimmers", "experienced",
	"perigoso", "perigosa", "perigosos", "perigosas", "perigo", "risco", "arriscado",
	"hipotermia", "choque térmico", "afogamento", "afogar", "exaustão", "insolação",
	"não recomendado", "não recomendada", "inseguro", "insegura", "surfistas experientes",
	"nadadores experientes", "experientes", "proibido",
}

// hazardStops end a hazard phrase: a clause joins another.
var hazardStops = map[string]bool{
	"and": true, "but": true, "when": true, "if": true, "so": true, "or": true,
	"e": true, "mas": true, "quando": true, "se": true, "ou": true, "então": true,
}

// maxHazardWords bounds a hazard phrase: enough for "risco de hipotermia
// severa", short enough to stay a label.
const maxHazardWords = 4

// hazardIn returns the short phrase naming the consequence in sentence,
// or "".
func hazardIn(sentence string) string {
	lower := lowerSameLength(sentence)
	at := -1
	for _, w := range hazardWords {
		for from := 0; ; {
			i := strings.Index(lower[from:], w)
			if i < 0 {
				break
			}
			i += from
			if endsWithWord(lower[:i+len(w)], w) && wordEndsAt(lower, i+len(w)) {
				if at < 0 || i < at {
					at = i
				}
				break
			}
			from = i + 1
		}
	}
	if at < 0 {
		return ""
	}
	return hazardPhrase(sentence[at:])
}

// hazardPhrase takes up to maxHazardWords words from s, stopping at
// punctuation, a number or a conjunction.
func hazardPhrase(s string) string {
	n, end := 0, 0
	for i := 0; i < len(s) && n < maxHazardWords; {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) && r != '-' && r != '\'' {
				break
			}
			j += size
		}
		word := strings.ToLower(s[i:j])
		if j == i || (n > 0 && (hazardStops[word] || word[0] >= '0' && word[0] <= '9')) {
			break
		}
		n, end, i = n+1, j, j
		if j < len(s) && s[j] != ' ' {
			break // punctuation closes the phrase
		}
	}
	return strings.TrimSpace(s[:end])
}

// lowerSameLength lower-cases s rune by rune, keeping a rune whose lower
// case (or whose invalid byte's replacement) would change its length, so
// that offsets found in the result index s itself: strings.ToLower turns
// "İ" into three bytes and an invalid byte into U+FFFD.
func lowerSameLength(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if l := unicode.ToLower(r); l != r && r != utf8.RuneError && utf8.RuneLen(l) == size {
			utf8.EncodeRune(b[i:], l)
		}
		i += size
	}
	return string(b)
}
