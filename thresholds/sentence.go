package thresholds

import (
	"strings"

	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/text/sentence"
)

// cleanSentence trims a sentence for display: white space collapsed, a
// leading list, heading or quote marker dropped.
func cleanSentence(s string) string {
	s = strings.TrimSpace(collapseSpaces(s))
	for {
		switch {
		case strings.HasPrefix(s, "#"), strings.HasPrefix(s, ">"):
			s = strings.TrimSpace(strings.TrimLeft(s, "#>"))
			continue
		case sentence.MarkerLen(s) > 0:
			s = strings.TrimSpace(s[sentence.MarkerLen(s):])
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
