package prompt

import (
	"encoding/base64"
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/text/lexical"
)

// Whether a paragraph reads as instructions to a model is decided on what a
// model reads in it, not on its bytes: a phrase split by a soft line break,
// a zero-width space, a Cyrillic "І", "&#73;", Markdown emphasis or a link
// is the phrase to a model, so it is to the patterns. The paragraph is read
// as its skeleton (lexical.Skeleton: look-alike letters as Latin, invisible
// characters gone, folded), its entities decoded, its markup collapsed and
// its lines joined; a base64 run in it is read decoded. The model is sent
// the text as written, or nothing of it when it is withheld.

// detect is instructionLike; a test measures the answer checks without it.
var detect = instructionLike

// instructionLike reports whether paragraph p reads as instructions to a
// model: its words are looked up once, and a family of phrases is matched
// only where its words are (most paragraphs have none of them).
func instructionLike(p string) bool {
	v := readAs(p)
	if (strings.IndexByte(v, '<') >= 0 || strings.Contains(v, "[/inst]") || strings.Contains(v, "[inst]")) && markers.MatchString(v) {
		return true
	}
	c := collapse(v)
	words := familiesOf(c)
	if words&roleWords != 0 && roleLines.MatchString(c) {
		return true
	}
	if words != 0 {
		j := strings.Join(strings.Fields(c), " ") // soft line breaks do not split a phrase
		for _, f := range phraseFamilies {
			if words&f.anchor != 0 && f.re.MatchString(j) {
				return true
			}
		}
	}
	return encodedOrders(p)
}

// readAs is p as a model reads it: entities decoded (twice: "&amp;#73;"),
// then its skeleton. Line breaks are kept for the role-line patterns.
func readAs(p string) string {
	if strings.IndexByte(p, '&') >= 0 {
		p = html.UnescapeString(html.UnescapeString(p))
	}
	return lexical.Skeleton(p)
}

// collapse removes the markup that can split a phrase without a reader
// seeing it: HTML comments' markers and tags, link targets, emphasis, code
// and escape marks, and letters spelled out one by one ("i g n o r e").
func collapse(v string) string {
	if strings.IndexByte(v, '<') >= 0 {
		v = strings.NewReplacer("<!--", " ", "-->", " ").Replace(v)
		v = htmlTag.ReplaceAllString(v, "")
	}
	if strings.Contains(v, "](") || strings.Contains(v, "][") {
		v = mdLink.ReplaceAllString(v, "$1")
	}
	v = strings.Map(func(r rune) rune {
		if strings.ContainsRune("*_`~\\", r) {
			return -1
		}
		return r
	}, v)
	if spelledOut(v) {
		v = spelled.ReplaceAllStringFunc(v, func(m string) string {
			return strings.ReplaceAll(strings.ReplaceAll(strings.Join(strings.Split(m, "  "), "\x00"), " ", ""), "\x00", " ")
		})
	}
	return v
}

// spelledOut reports four one-letter words in a row, the cheap test before
// spelled.
func spelledOut(v string) bool {
	run := 0
	for _, f := range strings.Fields(v) {
		if utf8.RuneCountInString(f) == 1 && unicode.IsLetter([]rune(f)[0]) {
			if run++; run >= 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

var (
	htmlTag = regexp.MustCompile(`</?[a-z][a-z0-9-]*(\s[^<>]*)?/?>`)
	mdLink  = regexp.MustCompile(`!?\[([^\]\n]*)\](?:\([^)\n]*\)|\[[^\]\n]*\])`)
	// spelled is five or more letters spelled out, a space between
	// letters and two or more between words.
	spelled = regexp.MustCompile(`\b(?:\pL {1,3}){4,}\pL\b`)
	// base64Run is a run long enough to hide a sentence.
	base64Run = regexp.MustCompile(`[A-Za-z0-9+/]{24,}={0,2}`)
)

// encodedOrders reports a base64 run in p that decodes to text reading as
// instructions: a model decodes base64 when asked to.
func encodedOrders(p string) bool {
	if !longRun(p) {
		return false
	}
	for _, run := range base64Run.FindAllString(p, 8) {
		b, err := base64.StdEncoding.DecodeString(run)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(run, "="))
		}
		if err != nil || !utf8.Valid(b) || !prose(string(b)) {
			continue
		}
		if instructionLike(string(b)) {
			return true
		}
	}
	return false
}

// longRun reports a run of 24 base64 characters, the cheap test before
// base64Run.
func longRun(p string) bool {
	run := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			if run++; run >= 24 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// prose reports text that is mostly letters and spaces: decoded base64
// that is words, not a key or an image.
func prose(s string) bool {
	n, letters := 0, 0
	for _, r := range s {
		n++
		if unicode.IsLetter(r) || r == ' ' {
			letters++
		}
	}
	return n > 0 && letters*10 >= n*8
}
