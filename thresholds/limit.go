package thresholds

import (
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/units"
)

// A comparator next to a quantity is not yet a threshold: "the pier is more
// than 300 m long" measures, "in 2019 the water was above 25 °C" tells
// history, "the difference can exceed 4 °C" compares, "the sea is usually
// below 20 °C" describes. A sentence states a limit when its bound comes
// with a cue of one: what follows from it (a hazard, a flag, a closure, who
// it suits), what to do about it (should, never, mantenha, evite), a
// condition (when, if, quando) or the word limit itself (maximum, mínimo).
// The cue lists are small and bilingual, like the subject vocabulary.

// consequenceCues say what follows from a bound: a hazard, a flag, a
// closure, who it suits. An entry ending in "*" matches the words it
// starts.
var consequenceCues = []string{
	"emergency", "caution", "careful", "warning*", "alert*", "flag", "flags", "closes", "closed",
	"close the", "prohibited", "forbidden", "banned", "allowed", "permitted", "safe", "safely",
	"ideal", "suit", "suits", "suitable", "good for", "beginner*", "children", "kill", "kills",
	"fatal", "death", "cause", "causes", "knock*", "rough", "outpace*", "chill*", "shorten*",
	"sign of", "calls for", "call for",
	"emergência", "cuidado", "aviso*", "alerta*", "bandeira*", "fecha a", "fecham a", "fechar a",
	"interdit*", "proibid*", "permitid*", "seguro", "segura", "seguros", "seguras", "tranquilo",
	"tranquila", "ideal", "ideais", "bom para", "bons para", "boa para", "boas para", "iniciante*",
	"crianças", "matar", "mata", "morte", "causar", "causa", "causam", "derruba*", "agitado",
	"agitada", "sinal de", "experiente*",
}

// directiveCues say what to do about a bound.
var directiveCues = []string{
	"should", "must", "never", "avoid", "keep", "stay", "wear", "use", "treat", "limit", "leave",
	"don't", "do not", "recommend*", "advise*", "require*", "need", "needs", "swim", "paddle",
	"deve", "devem", "deveria", "precisa*", "não", "nunca", "evite", "evitem", "mantenha*",
	"fique", "fiquem", "use", "usem", "nade", "nadem", "deixe", "saia", "limite", "recomend*",
	"exige*", "pede", "pedem", "trate",
}

// rangeDirectives are the directives that make a plain range a limit too
// ("Limit swims to 20 minutes in water of 15–18 °C"): the modal verbs and
// imperatives a description does not share. Not "only", "stay", "swim" or
// "não", which a range's description uses as readily ("waves of 1–2 m only
// on the south shore", "rips are 3–10 m wide, so a short swim sideways is
// enough"), nor "call"/"ligue" ("ligue 193").
var rangeDirectives = []string{
	"should", "must", "never", "avoid", "wear", "limit", "don't", "do not", "recommend*",
	"advise*", "require*", "need", "needs",
	"deve", "devem", "deveria", "precisa*", "nunca", "evite", "evitem", "use", "usem", "limite",
	"recomend*", "exige*",
}

// limitCues are the words and phrases of a cue that a sentence states a
// limit, besides the hazard words (hazardWords), lower case: a consequence,
// a directive, a condition or the word limit itself ("the maximum", "um
// máximo de"; not the adverb "no máximo", which is only a comparator and
// bounds measurements as readily: "a baía tem no máximo 10 m").
var limitCues = cues(slices.Concat(consequenceCues, directiveCues, []string{
	"only", "call", "só", "somente", "apenas", "ligue",
	// a condition
	"when", "whenever", "if", "unless", "quando", "se", "sempre que", "caso",
	// the word limit itself
	"minimum", "maximum", "limit*", "threshold*", "limite*", "o máximo", "o mínimo", "máximo de",
	"mínimo de", "máxima de", "mínima de", "a máxima", "a mínima",
})...)

// rangeCues are what make a plain range ("ondas de 2 a 3 m são perigosas",
// "limite o banho em água de 15 a 18 °C") a between threshold: a
// consequence or a directive. A range without one describes ("experienced
// surfers handle 2–3 m on a good day").
var rangeCues = cues(slices.Concat(rangeDirectives, []string{
	"danger*", "hazard*", "risk*", "unsafe", "hypotherm*", "cold shock", "drown*", "ideal", "suit",
	"suits", "suitable", "good for", "safe", "perig*", "risco*", "arriscad*", "hipoterm*",
	"choque térmico", "afoga*", "insegur*", "ideais", "bom para", "bons para", "boa para",
	"boas para", "seguro", "segura", "seguros", "seguras", "tranquilo", "tranquila",
})...)

// descriptionCues right before a bound make it a description: "usually
// below 20 °C", "muitas vezes abaixo de 20 °C", "em geral menor que 1 m".
var descriptionCues = cues(
	"usually", "often", "typically", "normally", "generally", "rarely", "sometimes", "mostly",
	"seldom", "frequently", "em geral", "geralmente", "normalmente", "tipicamente", "muitas vezes",
	"frequentemente", "raramente", "às vezes", "costuma", "costumam", "quase sempre",
)

// historyCues make a sentence tell what happened rather than what holds.
var historyCues = cues(
	"was", "were", "reached", "recorded", "measured", "peaked", "rode", "stayed", "fell", "rose",
	"dropped", "yesterday", "last week", "last year", "last summer", "last winter",
	"foi", "foram", "houve", "registrou", "registrad*", "chegou", "chegaram", "atingiu",
	"atingiram", "mediu", "marcou", "ficou", "ficaram", "caiu", "subiu", "pegaram", "teve",
	"tiveram", "passou", "ontem", "passado", "passada",
)

// comparisonCues make the bound a gap between two values, not a limit:
// "the difference between the beaches can exceed 4 °C", "the tidal range
// is under 1 m".
var comparisonCues = cues(
	"difference", "differences", "variation", "range", "diferença", "diferenças", "variação",
	"amplitude",
)

// descriptionWindow is how many words before a comparator are searched for
// a description cue: "often stays below", "em geral menor que".
const descriptionWindow = 3

// statesLimit reports whether the sentence text[sStart:sEnd], whose bound
// on q takes before words before q, states a limit. qs are the chunk's
// quantities, so that a year is not mistaken for one.
func statesLimit(text string, sStart, sEnd int, q units.Quantity, before int, qs []units.Quantity, row bool) bool {
	sentence := wordsOf(text[sStart:sEnd])
	ahead := sentence.upTo(q.Start - sStart) // the words before the quantity
	if historyCues.in(sentence) || hasYear(text, sStart, sEnd, qs) || comparisonCues.in(ahead) ||
		descriptionCues.in(ahead.last(before, descriptionWindow)) {
		return false
	}
	if row && cellIsBound(text, sStart, sEnd, q, before) {
		return true // "Vento: acima de 20 nós", a table of limits
	}
	return limitCues.in(sentence) || hazardIn(text[sStart:sEnd]) != ""
}

// rangeStatesLimit reports whether a plain range q… in a sentence states a
// limit through its consequence or a directive: "Waves of 2-3 m are
// dangerous", "Limite o banho em água de 15 a 18 °C". A range
// in a table cell is a column's value: the row's other cells say what it
// means, and a row of the Beaufort scale is no more a threshold than its
// neighbours that lack a danger word.
func rangeStatesLimit(text string, sStart, sEnd int, q units.Quantity, qs []units.Quantity, row bool) bool {
	if row {
		return false
	}
	sentence := wordsOf(text[sStart:sEnd])
	ahead := sentence.upTo(q.Start - sStart)
	if historyCues.in(sentence) || hasYear(text, sStart, sEnd, qs) ||
		descriptionCues.in(ahead.last(0, descriptionWindow)) {
		return false // "rips are usually narrow, often 3–10 m wide"
	}
	return rangeCues.in(sentence)
}

// cueList is a set of cues: whole words, word prefixes ("proibid*") and
// phrases of several words or with an apostrophe ("do not", "don't").
type cueList struct {
	whole    map[string]bool
	prefixes [256][]string // by first byte
	phrases  []string
}

func cues(list ...string) *cueList {
	c := &cueList{whole: map[string]bool{}}
	for _, w := range list {
		switch p, isPrefix := strings.CutSuffix(w, "*"); {
		case strings.ContainsAny(w, " '"):
			c.phrases = append(c.phrases, w)
		case isPrefix:
			c.prefixes[p[0]] = append(c.prefixes[p[0]], p)
		default:
			c.whole[w] = true
		}
	}
	return c
}

// sentenceWords is a sentence lower-cased once, at the same byte length,
// and cut into its words.
type sentenceWords struct {
	lower  string
	words  []string
	starts []int // byte offset of each word in lower
}

func wordsOf(s string) sentenceWords {
	sw := sentenceWords{lower: lowerSameLength(s)}
	forEachWordAt(sw.lower, func(start int, w string) {
		sw.words = append(sw.words, w)
		sw.starts = append(sw.starts, start)
	})
	return sw
}

// upTo is the part of the sentence before byte offset end.
func (s sentenceWords) upTo(end int) sentenceWords {
	n := 0
	for n < len(s.words) && s.starts[n]+len(s.words[n]) <= end {
		n++
	}
	return sentenceWords{lower: s.lower[:end], words: s.words[:n], starts: s.starts[:n]}
}

// last is the n words that come before the skip words at the end, as a
// sentence of their own: "often stays" before "below".
func (s sentenceWords) last(skip, n int) sentenceWords {
	end := len(s.words) - skip
	if end <= 0 {
		return sentenceWords{}
	}
	from := max(0, end-n)
	lo, hi := s.starts[from], s.starts[end-1]+len(s.words[end-1])
	return sentenceWords{lower: s.lower[lo:hi], words: s.words[from:end], starts: s.starts[from:end]}
}

// in reports whether one of the cues occurs in the sentence.
func (c *cueList) in(s sentenceWords) bool {
	for _, w := range s.words {
		if c.whole[w] {
			return true
		}
		for _, p := range c.prefixes[w[0]] {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return len(c.phrases) > 0 && hasCue(s.lower, c.phrases)
}

// hasCue reports whether one of cues occurs in lower at word boundaries.
func hasCue(lower string, cues []string) bool {
	for _, c := range cues {
		for from := 0; ; {
			i := strings.Index(lower[from:], c)
			if i < 0 {
				break
			}
			i += from
			if endsWithWord(lower[:i+len(c)], c) && wordEndsAt(lower, i+len(c)) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// hasYear reports whether the sentence names a year (1800–2099) that is
// not a quantity: "Em 2024, houve aviso de ressaca com ondas de até 3,5 m".
func hasYear(text string, sStart, sEnd int, qs []units.Quantity) bool {
	for i := sStart; i+4 <= sEnd; i++ {
		if !isDigitByte(text[i]) || i > sStart && isDigitByte(text[i-1]) {
			continue
		}
		j := i
		for j < sEnd && isDigitByte(text[j]) {
			j++
		}
		if j-i != 4 || inQuantity(i, qs) {
			continue
		}
		if y := text[i:j]; y >= "1800" && y <= "2099" {
			return true
		}
	}
	return false
}

func inQuantity(pos int, qs []units.Quantity) bool {
	for _, q := range qs {
		if pos >= q.Start && pos < q.End {
			return true
		}
	}
	return false
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// cellIsBound reports whether the table cell holding q is a label and a
// bound and nothing else ("Vento: acima de 20 nós"): such a cell is a rule
// of a table of limits, unlike a cell of prose ("Observação: Nordeste mais
// constante, com água entre 18 e 19 °C").
func cellIsBound(text string, sStart, sEnd int, q units.Quantity, before int) bool {
	cStart, cEnd := sStart, sEnd
	if i := strings.LastIndex(text[sStart:q.Start], "; "); i >= 0 {
		cStart = sStart + i + 2
	}
	if i := strings.Index(text[q.End:sEnd], "; "); i >= 0 {
		cEnd = q.End + i
	}
	label, value, ok := strings.Cut(text[cStart:q.Start], ": ")
	if !ok || strings.ContainsAny(label, ".;") {
		return false
	}
	n := 0
	forEachWord(value, func(int, int, string) { n++ })
	return n <= before && strings.Trim(text[q.End:cEnd], " .;\n") == ""
}
