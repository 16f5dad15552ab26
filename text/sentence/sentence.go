package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a half-open byte range of a sentence in the text it was found in.
type Span struct{ Start, End int }

// abbreviations never end a sentence, whatever follows them (lower case,
// without the final dot). English and Brazilian Portuguese.
var abbreviations = map[string]bool{
	"dr": true, "dra": true, "sr": true, "sra": true, "srta": true, "srs": true, "sras": true,
	"prof": true, "profa": true, "eng": true, "mr": true, "mrs": true, "ms": true, "jr": true,
	"st": true, "av": true, "ex": true, "e.g": true, "i.e": true, "approx": true, "aprox": true,
	"vs": true, "cf": true, "no": true, "nº": true, "fig": true, "tel": true, "pág": true, "pp": true,
	"min": true, "máx": true, "mín": true, "est": true, "dept": true, "depto": true, "a.m": true,
	"p.m": true, "a.c": true, "d.c": true, "u.s": true, "ca": true, "obs": true,
}

// closers may follow a terminator and still belong to its sentence:
// closing quotes (straight and typographic), brackets and emphasis marks.
const closers = "\"'”’»)]*_"

// Split splits s into sentences: a terminator (. ! ? …) with any closing
// quotes or brackets, then white space, then what can start a sentence.
// Abbreviations, initials ("J. Silva", "p. ex."), decimals ("1.5", "1,5")
// and units ("km/h.") do not end one. The spans cover the sentences only;
// the white space between them belongs to none.
func Split(s string) []Span {
	var out []Span
	for start := skipSpace(s, 0); start < len(s); {
		var sp Span
		sp, start = next(s, start)
		if sp.End > sp.Start {
			out = append(out, sp)
		}
	}
	return out
}

// next is the sentence that starts at start (where a previous one left
// off, past white space) and where the one after it starts. At the end of s
// the span runs to the last non-space byte, and may be empty.
func next(s string, start int) (Span, int) {
	for i := start; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r != '.' && r != '!' && r != '?' && r != '…' {
			continue
		}
		for i < len(s) { // closing quotes, brackets, emphasis: the sentence's
			c, n := utf8.DecodeRuneInString(s[i:])
			if !strings.ContainsRune(closers, c) {
				break
			}
			i += n
		}
		// The cheap tests first: most dots are not followed by a space and
		// a capital; only those that are can be an abbreviation's.
		following := skipSpace(s, i)
		if following == i && i < len(s) {
			continue // "1.5", "e.g.x": no space, no boundary
		}
		if following < len(s) && !startsSentence(s[following:]) {
			continue
		}
		if r == '.' && (isAbbreviation(s[start:i]) || isListNumber(s[start:i])) {
			continue
		}
		return Span{start, i}, following
	}
	return Span{start, max(start, len(strings.TrimRightFunc(s, unicode.IsSpace)))}, len(s)
}

// isListNumber reports whether a sentence so far is only a list number
// ("5."), which opens a numbered item rather than ending anything.
func isListNumber(s string) bool {
	t := strings.TrimSuffix(strings.TrimSpace(s), ".")
	if t == "" || len(t) > 9 {
		return false
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// isAbbreviation reports whether the text before a final dot ends in an
// abbreviation or a single-letter initial.
func isAbbreviation(before string) bool {
	w := strings.TrimRight(before, closers)
	w = strings.TrimSuffix(w, ".")
	if i := strings.LastIndexFunc(w, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(`("“‘«[`, r) }); i >= 0 {
		_, n := utf8.DecodeRuneInString(w[i:])
		w = w[i+n:]
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r) // initials and "p." of "p. ex."
	}
	return abbreviations[strings.ToLower(w)]
}

// startsSentence reports whether s can open a sentence: an upper-case
// letter, a digit, an opening quote or bracket, or a list or emphasis mark.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune("\"'“‘([¿¡*_-`>", r)
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// First is the first sentence of text on one line, as written: what an
// extractive header says a chunk is about. Markup is the caller's to remove
// (a list marker is syntax, but the "-" of "-5 °C", the "#" of "#1" and the
// backtick of "`app.py`" are words), so First never trims a character.
func First(text string) string {
	start := skipSpace(text, 0)
	if start == len(text) {
		return ""
	}
	sp, _ := next(text, start) // not Split: a long chunk has many sentences after it
	return strings.Join(strings.Fields(text[sp.Start:sp.End]), " ")
}

// Around is the span of the sentence of text that holds text[start:end]:
// from the end of the sentence before it to its own terminator. A sentence
// ends at ".", "!" or "?" followed by white space unless an abbreviation or
// an initial precedes the dot ("1.5" and "e.g." end none), and at a block
// break: a blank line, or a line that opens a list item, heading, quote or
// table row. A single line break is a soft wrap, unless hardBreaks (a table
// row rendered one cell a line).
func Around(text string, start, end int, hardBreaks bool) (int, int) {
	s := 0
	for i := start - 1; i >= 0; i-- {
		if text[i] == '\n' && (hardBreaks || blockBreak(text, i)) {
			s = i + 1
			break
		}
		if isStop(text[i]) && i+1 < start && isSpaceByte(text[i+1]) && !stopIsAbbreviation(text, i) {
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
		if isStop(text[j]) && (j+1 == len(text) || isSpaceByte(text[j+1])) && !stopIsAbbreviation(text, j) {
			e = j + 1
			break
		}
	}
	return s, e
}

func isStop(b byte) bool { return b == '.' || b == '!' || b == '?' }

func isSpaceByte(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' }

// stopIsAbbreviation reports whether the terminator at text[i] is the dot
// of an abbreviation or an initial, the rule Split uses.
func stopIsAbbreviation(text string, i int) bool {
	if text[i] != '.' {
		return false
	}
	from := strings.LastIndexAny(text[:i], " \t\n") + 1
	return isAbbreviation(text[from : i+1])
}

// blockBreak reports whether the line break at text[i] ends a block: a blank
// line follows, or a line opening a list item, heading, quote or table row.
func blockBreak(text string, i int) bool {
	rest := strings.TrimLeft(text[i+1:], " \t")
	if rest == "" || rest[0] == '\n' || (i > 0 && text[i-1] == '\n') {
		return true
	}
	return MarkerLen(rest) > 0 || strings.ContainsRune("#>|", rune(rest[0]))
}

// Cap cuts s to at most n runes at a word boundary, marking the cut with "…".
func Cap(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:›") + "…"
}
