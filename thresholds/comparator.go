package thresholds

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
)

type phrase struct {
	text       string // lower case, single spaces
	comparator string
}

func phrases(comparator string, texts ...string) []phrase {
	out := make([]phrase, len(texts))
	for i, t := range texts {
		out[i] = phrase{t, comparator}
	}
	return out
}

// before lists the phrases that bind the quantity right after them. When
// several end the same text, the longest wins: "no more than" (at most)
// over "more than" (above), "não superior a" over "superior a".
var before = concat(
	phrases(schema.ComparatorAbove,
		"above", "over", "more than", "greater than", "higher than", "stronger than",
		"larger than", "bigger than", "deeper than", "warmer than", "hotter than",
		"faster than", "exceeds", "exceeding", "exceed", "in excess of", "beyond", ">",
		"acima de", "acima dos", "acima das", "acima do", "acima da", "mais de", "mais do que",
		"superior a", "superiores a", "superior aos", "superiores aos", "maior que",
		"maior do que", "maiores que", "maiores do que", "ultrapassa", "ultrapassam",
		"ultrapassar", "ultrapassando", "passa de", "passar de", "passam de", "excede",
		"excedem", "exceder", "mais forte que", "mais fortes que", "mais fundo que",
		"mais profundo que", "além de", "além dos"),
	phrases(schema.ComparatorAtLeast,
		"at least", "minimum of", "a minimum of", "no less than", "not less than",
		"greater than or equal to", "not below", "not under", "≥", ">=",
		"a partir de", "a partir dos", "a partir das", "pelo menos", "no mínimo",
		"mínimo de", "não menos de", "não inferior a"),
	phrases(schema.ComparatorBelow,
		"below", "under", "less than", "lower than", "colder than", "cooler than",
		"weaker than", "smaller than", "shallower than", "<",
		"abaixo de", "abaixo dos", "abaixo das", "abaixo do", "abaixo da", "menos de",
		"menos do que", "inferior a", "inferiores a", "inferior aos", "inferiores aos",
		"menor que", "menor do que", "menores que", "menores do que", "mais frio que",
		"mais fria que"),
	phrases(schema.ComparatorAtMost,
		"up to", "at most", "no more than", "not more than", "maximum of", "a maximum of",
		"less than or equal to", "not exceeding", "not to exceed", "do not exceed",
		"not above", "not over", "within", "≤", "<=",
		"no deeper than", "not deeper than", "no higher than", "no faster than", "no stronger than",
		"no bigger than", "no larger than", "no warmer than",
		"até", "até os", "até as", "até o", "até a", "no máximo", "máximo de",
		"não mais fundo que", "não mais profundo que", "não mais forte que", "não mais alto que",
		"não mais de", "não mais que", "não mais do que", "não superior a",
		"não ultrapassar", "não ultrapasse", "dentro de"),
)

// after lists the phrases that bind the quantity right before them: "2 m
// or more", "18 °C ou menos", "25 nós no mínimo", "20 nós para cima". A
// comparative names its direction: "10 °C or colder" and "10 °C ou mais
// fria" are at most, and the longer phrase wins over "ou mais".
var after = concat(
	phrases(schema.ComparatorAtLeast,
		"or more", "or higher", "or above", "or greater", "or over", "and above", "and over",
		"and up", "and upwards", "and higher", "and more", "or stronger", "or faster", "or deeper",
		"or warmer", "or hotter", "or bigger", "or larger", "at least", "at the least", "minimum",
		"ou mais", "ou superior", "ou superiores", "ou acima", "e acima", "ou maior", "ou maiores",
		"no mínimo", "pelo menos", "para cima", "pra cima", "em diante", "ou mais forte",
		"ou mais fortes", "ou mais quente", "ou mais quentes", "ou mais alta", "ou mais altas",
		"ou mais alto", "ou mais altos", "ou mais fundo", "ou mais funda", "ou mais profundo",
		"ou mais profunda", "ou mais rápido", "ou mais rápida", "ou mais rápidas", "ou mais rápidos"),
	phrases(schema.ComparatorAtMost,
		"or less", "or lower", "or below", "or fewer", "or under", "and below", "and under",
		"and less", "and lower", "or weaker", "or slower", "or shallower", "or colder", "or cooler",
		"or smaller", "at most", "at the most", "maximum",
		"ou menos", "ou inferior", "ou inferiores", "ou abaixo", "e abaixo", "ou menor", "ou menores",
		"no máximo", "para baixo", "pra baixo", "ou mais fria", "ou mais frias", "ou mais frio",
		"ou mais frios", "ou mais fraco", "ou mais fraca", "ou mais fracos", "ou mais fracas",
		"ou mais baixa", "ou mais baixas", "ou mais baixo", "ou mais baixos", "ou mais raso",
		"ou mais rasa", "ou mais lento", "ou mais lenta"),
)

// betweenWords open a two-sided bound, optionally with an article.
var betweenWords = []string{"between", "entre", "entre os", "entre as", "between the"}

// hedges may sit between a comparator and its quantity: "above about 2 m".
var hedges = []string{
	"about", "around", "approximately", "roughly", "approx.", "some", "circa", "~",
	"cerca de", "aproximadamente", "aprox.", "uns", "umas", "em torno de", "por volta de",
}

func concat(lists ...[]phrase) []phrase {
	var out []phrase
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// tailWindow bounds how far back from a quantity a comparator is looked for:
// the longest phrase plus a hedge, with room to spare.
const tailWindow = 64

// comparatorBefore returns the comparator whose phrase ends right before
// pos (after an optional hedge), searching no earlier than from, and how
// many words the phrase and hedge take.
func comparatorBefore(text string, from, pos int) (string, int) {
	tail, hedge := trimHedge(lowerTail(text, from, pos))
	best, bestLen := "", 0
	for _, p := range before {
		if len(p.text) > bestLen && endsWithWord(tail, p.text) {
			best, bestLen = p.comparator, len(p.text)
		}
	}
	if best == "" {
		return "", 0
	}
	return best, hedge + wordCount(tail[len(tail)-bestLen:])
}

// isBetween reports whether "between"/"entre" ends right before pos, and
// how many words it takes.
func isBetween(text string, from, pos int) (bool, int) {
	tail, hedge := trimHedge(lowerTail(text, from, pos))
	for _, w := range betweenWords {
		if endsWithWord(tail, w) {
			return true, hedge + wordCount(w)
		}
	}
	return false, 0
}

// comparatorAfter returns the comparator whose phrase starts right after
// pos, or after a word saying what the quantity measures ("1.5 m deep or
// more", "2 m de profundidade ou mais"), searching no further than to, and
// how many words it takes.
func comparatorAfter(text string, pos, to int) (string, int) {
	end := min(to, pos+tailWindow)
	head := strings.TrimLeft(strings.ToLower(collapseSpaces(text[pos:end])), " ")
	for _, m := range measures {
		if strings.HasPrefix(head, m) && wordEndsAt(head, len(m)) {
			if cmp, n := postfix(strings.TrimLeft(head[len(m):], " ")); cmp != "" {
				return cmp, wordCount(m) + n
			}
		}
	}
	return postfix(head)
}

// measures may sit between a quantity and its postfix bound.
var measures = []string{"deep", "high", "tall", "long", "de profundidade", "de altura"}

// postfix returns the comparator whose phrase opens head, and how many
// words it takes.
func postfix(head string) (string, int) {
	best, bestLen := "", 0
	for _, p := range after {
		if len(p.text) > bestLen && strings.HasPrefix(head, p.text) && wordEndsAt(head, len(p.text)) {
			best, bestLen = p.comparator, len(p.text)
		}
	}
	if quantifies(head, bestLen) {
		return "", 0
	}
	return best, wordCount(head[:bestLen])
}

// quantifiers are the postfix phrases that also open a quantifier of the
// next noun: "1 m at most beaches", "2 m at least twice".
var quantifiers = map[string]bool{"at most": true, "at least": true}

// quantifies reports whether head[:n], a postfix phrase, is a quantifier
// of the word after it rather than a bound on the number before it: it is
// followed by a word that is not a preposition or conjunction.
func quantifies(head string, n int) bool {
	if !quantifiers[head[:n]] {
		return false
	}
	next := ""
	forEachWord(head[n:], func(start, _ int, w string) {
		if next == "" && strings.TrimSpace(head[n:n+start]) == "" {
			next = w
		}
	})
	return next != "" && !boundFollowers[next]
}

// boundFollowers may come after a postfix bound: "30 m at least from the
// rocks", "1 m at most when".
var boundFollowers = map[string]bool{
	"from": true, "of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "off": true,
	"away": true, "and": true, "or": true, "but": true, "when": true, "if": true, "while": true, "deep": true,
	"high": true, "long": true, "offshore": true,
}

// trimHedge cuts a hedge ("about", "cerca de") from the end of tail and
// returns how many words it took.
func trimHedge(tail string) (string, int) {
	for _, h := range hedges {
		if endsWithWord(tail, h) {
			return strings.TrimRight(tail[:len(tail)-len(h)], " "), wordCount(h)
		}
	}
	return tail, 0
}

// wordCount counts the runs of letters in s, as forEachWord sees them.
func wordCount(s string) int {
	n := 0
	forEachWord(s, func(int, int, string) { n++ })
	return n
}

// lowerTail is the lower-cased text before pos, back to from or
// tailWindow bytes, with runs of spaces collapsed and trailing ones cut.
func lowerTail(text string, from, pos int) string {
	start := max(from, pos-tailWindow)
	for start < pos && !utf8.RuneStart(text[start]) {
		start++
	}
	return strings.TrimRight(strings.ToLower(collapseSpaces(text[start:pos])), " ")
}

// endsWithWord reports whether s ends with p starting at a word boundary.
func endsWithWord(s, p string) bool {
	if !strings.HasSuffix(s, p) {
		return false
	}
	rest := s[:len(s)-len(p)]
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(rest)
	first, _ := utf8.DecodeRuneInString(p)
	return !isWordRune(r) || !isWordRune(first)
}

func wordEndsAt(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// collapseSpaces turns every run of white space (including no-break
// spaces and line breaks) into one ASCII space.
func collapseSpaces(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || r == '\u00a0' || r == '\u202f' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}
