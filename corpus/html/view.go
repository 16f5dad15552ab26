package html

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	nethtml "golang.org/x/net/html"
)

// view builds a page's view for chunking.Body: Doc.Text with everything a
// reader does not see blanked, and the words a reader sees moved left on
// their line as a browser shows them (white space collapsed, entities
// decoded, a space where a block or a cell ended). It keeps the body's
// contract: the view is as long as the text, its newlines are the text's,
// and every byte records its origin in the text, which never decreases,
// so a chunk's line numbers and byte offsets are the source's.
//
// What a line's words no longer fill is padding at the line's end,
// blanked. chunking.Body.Words collapses the spaces of a line that holds a
// blanked byte (and caps its indentation), so after code whose line that
// would change (indented, aligned, tabbed: most lines of a highlighted
// listing) the padding is plain space instead: the line keeps its
// characters, with spaces at its end.
type view struct {
	text    string
	b       []byte
	removed []bool
	origin  []int
	line    int  // where the current line starts
	eol     int  // where it ends: its newline, or the end of the text
	w       int  // where the next byte of the view goes, on the current line
	pos     int  // how far the text is read
	code    bool // the current line's last bytes are code: its padding stays space
}

func newView(text string, from int) *view {
	n := len(text)
	v := &view{text: text, b: make([]byte, n), removed: make([]bool, n), origin: make([]int, n)}
	for i := range n {
		v.b[i], v.removed[i], v.origin[i] = ' ', true, i
		if text[i] == '\n' {
			v.b[i], v.removed[i] = '\n', false
		}
	}
	v.startLine(0)
	v.skip(0, from) // front matter: read by corpus, blanked here
	return v
}

func (v *view) startLine(at int) {
	v.line, v.w, v.code = at, at, false
	v.eol = len(v.text)
	if i := strings.IndexByte(v.text[at:], '\n'); i >= 0 {
		v.eol = at + i
	}
}

// newline closes the current line at the newline at nl: the bytes its
// words did not fill are padding, whose origin is the line's end (its
// newline, or the end of the text), past every byte shown on it, so a
// span of the source that ends with a line's last word maps to a span of
// the view that ends there too (Body.ViewSpan), padding of code included.
func (v *view) newline(nl int) {
	v.pad(nl)
	v.startLine(nl + 1)
}

func (v *view) pad(end int) {
	blank := !v.code || collapsed(v.b[v.line:v.w])
	for j := v.w; j < end; j++ {
		v.b[j], v.removed[j], v.origin[j] = ' ', blank, end
	}
}

// collapsed reports whether a line of code reads the same once
// chunking.Body.Words has collapsed it: words single-spaced after at most
// eight spaces of indentation (which Words keeps), nothing after the last,
// no space before punctuation, not a list marker alone and not empty
// (Words drops both).
func collapsed(line []byte) bool {
	s := strings.TrimLeft(string(line), " ")
	if s == "" || len(line)-len(s) > 8 || s[len(s)-1] == ' ' || strings.ContainsAny(s, "\t\u00a0") || strings.Contains(s, "  ") || bareMarker.MatchString(s) {
		return false
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ' ' && strings.IndexByte(".,;:!?)", s[i+1]) >= 0 {
			return false
		}
	}
	return true
}

// bareMarker is chunking's bare list marker: a line Words drops.
var bareMarker = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])$`)

// finish closes the last line.
func (v *view) finish() {
	v.skip(v.pos, len(v.text))
	v.pad(v.eol)
}

// skip reads the text to end, showing nothing of it but its newlines.
func (v *view) skip(from, end int) {
	for i := from; i < end; {
		j := strings.IndexByte(v.text[i:end], '\n')
		if j < 0 {
			break
		}
		v.newline(i + j)
		i += j + 1
	}
	v.pos = max(v.pos, end)
}

// put shows byte c, from the text's offset at, at the view's next place.
func (v *view) put(c byte, at int, code bool) bool {
	if v.w >= v.eol {
		return false // the line is full: cannot happen while no byte shows ahead of what is read
	}
	v.b[v.w], v.removed[v.w], v.origin[v.w] = c, false, at
	v.w++
	v.code = code
	return true
}

// space shows a space unless the line starts here or already ends in one.
func (v *view) space(at int) {
	if v.w > v.line && v.b[v.w-1] != ' ' {
		v.put(' ', at, false)
	}
}

// sep reads a tag that ends a run of words: a space stands in it.
func (v *view) sep(s, e int) {
	v.pos = max(v.pos, s)
	v.space(s)
	v.skip(s, e)
}

// synth reads a tag whose meaning a reader sees as words (a list item's
// "- ", an image's alt text): they stand in its first line, if they fit.
// It returns the view's span of them (empty when they did not fit).
func (v *view) synth(words string, s, e int) (int, int) {
	v.pos = max(v.pos, s)
	start := v.w
	// Each byte's origin is a byte of the tag, in order: a span that starts
	// or ends in them maps to the source and back (Body.ViewSpan).
	if room := min(e-s, min(e, v.eol)-v.w); len(words) <= room && utf8.ValidString(words) {
		for i := 0; i < len(words); i++ {
			v.b[v.w], v.removed[v.w], v.origin[v.w] = words[i], false, s+i
			v.w++
		}
		v.code = false
	}
	end := v.w
	v.skip(s, e)
	return start, end
}

// words reads text [s, e) as a reader sees it: in code, every character
// as written; elsewhere runs of white space as one space, none at a line's
// start. Entities are decoded. It returns the view's span of what it
// showed that is not white space (first < 0: nothing).
func (v *view) words(s, e int, code bool) (first, last int) {
	first, last = -1, -1
	show := func(c byte, at int) {
		if v.put(c, at, code) && c != ' ' && c != '\t' {
			if first < 0 {
				first = v.w - 1
			}
			last = v.w
		}
	}
	white := func(r rune, at int) int { // the bytes it showed, at least one
		switch {
		case code && (r == ' ' || r == '\t'):
			show(byte(r), at)
		case code && r == 0xA0:
			show(0xC2, at)
			show(0xA0, at+1)
			return 2
		case code && r != '\n' && r != '\r':
			show(' ', at)
		case code:
			// a newline an entity wrote: lines are the text's
		default:
			v.space(at)
		}
		return 1
	}
	v.pos = max(v.pos, s)
	for i := s; i < e; {
		c := v.text[i]
		switch {
		case c == '\n':
			v.newline(i)
			i++
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			white(rune(c), i)
			i++
		case c == '&':
			d, n := entity(v.text, i, e)
			if n == 0 {
				show(c, i)
				i++
				continue
			}
			at := i // each shown byte's origin a byte of the reference, in order
			for _, r := range d {
				switch {
				case unicode.IsSpace(r):
					at += white(r, at)
				case r < 0x20 || r == 0x7F:
					// a control character: nothing to read
				default:
					var buf [utf8.UTFMax]byte
					for _, x := range buf[:utf8.EncodeRune(buf[:], r)] {
						show(x, at)
						at++
					}
				}
			}
			i += n
		case c < utf8.RuneSelf:
			show(c, i)
			i++
		default:
			r, n := utf8.DecodeRuneInString(v.text[i:e])
			if unicode.IsSpace(r) {
				white(r, i)
			} else {
				for k := range n {
					show(v.text[i+k], i+k)
				}
			}
			i += n
		}
		v.pos = max(v.pos, i)
	}
	return first, last
}

// maxEntityName bounds the name read after "&": the longest entity's is
// 32 ("CounterClockwiseContourIntegral;"), so a longer run is text.
const maxEntityName = 40

// entity decodes the character reference at text[i] ("&amp;", "&#8212;",
// "&nbsp", the legacy names without ";") as HTML does, returning it and
// the bytes it took; n is 0 when there is none. The candidate is the run
// of name characters and its ";": the decoder stops inside it where the
// reference ends, and the rest of the run is its own text.
func entity(text string, i, end int) (string, int) {
	j := i + 1
	for j < end && j-i <= maxEntityName && (isAlnum(text[j]) || text[j] == '#') {
		j++
	}
	if j < end && text[j] == ';' {
		j++
	}
	c := text[i:j]
	d := nethtml.UnescapeString(c)
	if d == c || len(d) > len(c) { // none; or longer than its name ("&Gg;"): kept as written
		return "", 0
	}
	return d, len(c)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
