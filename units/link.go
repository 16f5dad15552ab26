package units

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/units/numeral"
)

// connector reads what joins the two ends of a range, starting at pos right
// after the lower end: a dash with optional spaces, or a word with one space
// on each side. "e" and "and" also join lists, so they count only after
// "entre" or "between" (lowerStart is where the lower end starts). It
// returns the position after the connector and its trailing space.
func connector(t string, pos, lowerStart int) (int, bool) {
	i := pos + numeral.SpaceWidth(t, pos)
	if w := dashWidth(t, i); w > 0 {
		i += w
		return i + numeral.SpaceWidth(t, i), true
	}
	if i == pos {
		return 0, false
	}
	for _, c := range rangeWords {
		end := i + len(c.word)
		if end >= len(t) || t[i:end] != c.word || t[end] != ' ' {
			continue
		}
		if c.lead != "" && !leadBefore(t, lowerStart, c.lead) {
			return 0, false
		}
		return end + 1, true
	}
	return 0, false
}

// rangeWords join the ends of a range; lead, when set, must come before
// the lower end.
var rangeWords = []struct{ word, lead string }{
	{"to", ""},
	{"até", ""},
	{"a", ""},
	{"e", "entre"},
	{"and", "between"},
	{"para", "de"}, // "de 20 para 8 nós": a change, both ends in knots
}

// dashWidth is the width of a hyphen, en dash or em dash at t[i], or 0.
func dashWidth(t string, i int) int {
	switch {
	case i < len(t) && t[i] == '-':
		return 1
	case strings.HasPrefix(t[i:], "–"), strings.HasPrefix(t[i:], "—"):
		return 3
	}
	return 0
}

// leadBefore reports whether lead is the word before pos, or the word
// before an article there ("entre os 15 e 18 °C").
func leadBefore(t string, pos int, lead string) bool {
	word, start := prevWord(t, pos-signWidthBefore(t, pos))
	if strings.EqualFold(word, lead) {
		return true
	}
	switch strings.ToLower(word) {
	case "os", "as", "the":
		word, _ = prevWord(t, start)
		return strings.EqualFold(word, lead)
	}
	return false
}

// prevWord returns the word before pos, skipping spaces, and where it
// starts.
func prevWord(t string, pos int) (string, int) {
	i := pos
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		if !unicode.IsSpace(r) {
			break
		}
		i -= size
	}
	end := i
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(t[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	return t[i:end], i
}

func signWidthBefore(t string, i int) int {
	switch {
	case i >= 1 && t[i-1] == '-':
		return 1
	case i >= len(minusSign) && t[i-len(minusSign):i] == minusSign:
		return len(minusSign)
	}
	return 0
}

// linkRanges joins two quantities that each carry their unit into a range
// ("between 1 m and 2 m", "15 °C a 18 °C").
func (p *parser) linkRanges() {
	for k := 0; k+1 < len(p.found); k++ {
		a, b := &p.found[k].q, &p.found[k+1].q
		if a.Range != 0 || b.Range != 0 || a.Dimension != b.Dimension {
			continue
		}
		if end, ok := connector(p.text, a.End, a.Start); ok && end == b.Start {
			p.ranges++
			a.Range, b.Range = p.ranges, p.ranges
		}
	}
}

// equivalenceWords may open a restatement after the bracket:
// "3 ft (about 0.9 m)", "20 nós (cerca de 37 km/h)".
var equivalenceWords = []string{
	"approximately ", "aproximadamente ", "cerca de ", "roughly ", "around ",
	"approx. ", "aprox. ", "about ", "circa ", "ca. ", "c. ", "i.e. ", "or ", "ou ",
	"~", "≈ ", "≈",
}

// linkEquivalents marks a quantity in brackets right after another of the
// same dimension as restating it. A bracketed range after a range restates
// it end by end: "2–3 m (6–10 ft)".
func (p *parser) linkEquivalents() {
	for j := 1; j < len(p.found); j++ {
		a, b := &p.found[j-1].q, &p.found[j].q
		if a.Dimension != b.Dimension || !p.restates(a.End, b.Start) {
			continue
		}
		switch {
		case a.Range == 0 && b.Range == 0:
			b.EquivalentOf = j - 1
		case a.Range != 0 && b.Range != 0 && j >= 2 && j+1 < len(p.found) &&
			p.found[j-2].q.Range == a.Range && p.found[j+1].q.Range == b.Range:
			b.EquivalentOf = j - 2
			p.found[j+1].q.EquivalentOf = j - 1
		}
	}
}

// restates reports whether t[from:to] opens a bracketed restatement.
func (p *parser) restates(from, to int) bool {
	t := p.text
	i := from + numeral.SpaceWidth(t, from)
	if i >= to || (t[i] != '(' && t[i] != '[') {
		return false
	}
	i++
	if i == to {
		return true
	}
	for _, w := range equivalenceWords {
		if i+len(w) == to && strings.EqualFold(t[i:to], w) {
			return true
		}
	}
	return false
}
