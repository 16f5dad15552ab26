package chunking

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/ocean-safety/ingest/schema"
)

// A Format reads a corpus document into a Body: its text with the markup
// that is not words blanked (the view), and its blocks. Markdown (package
// markdown: CommonMark with GFM tables, and the markup of Hugo, Docusaurus,
// MkDocs and MDX sites) is the format there is. The chunker reads only the
// Body: a new input format (reStructuredText, AsciiDoc, HTML) is a package
// that fills one, and the chunking, its ids, lead-ins and quality figures
// come with it.

// Body is a document as a format read it: the record the parse stage hands
// the chunk stage.
type Body struct {
	// Doc is the document, its Text as written. Every offset below is an
	// offset of Doc.Text, which View shares.
	Doc schema.Document
	// View is Doc.Text with its markup blanked: the same length, the same
	// lines, words moved left where leading markup or insignificant
	// indentation went (Origin).
	View string
	// Removed marks the blanked bytes of View.
	Removed []bool
	// Origin is, per byte of View, its offset in Doc.Text; nil when every
	// byte is at its own.
	Origin []int
	// Notes are the admonitions (note, tip, warning…): their kinds go to
	// the metadata of the chunks that overlap them.
	Notes []Region
	// Included are the spans of included files (Kind: the file's path):
	// the paths go to the metadata ("included") of the chunks that overlap
	// them, a chunk's provenance beyond its document.
	Included []Region
	// Blocks are the body's blocks, in order.
	Blocks []Block
	// Tables are the lines of the body's tables (a table in a prose
	// document is reported).
	Tables []int
	// Diags are the format's own findings (an unclosed fence).
	Diags []schema.Diagnostic
	// Markup counts what the format removed, by kind, for the run report;
	// the chunker adds the chunks it drops for holding only markup.
	Markup map[string]int
}

// MarkupEmptyChunks counts, in Body.Markup, the chunks dropped because
// they held only markup.
const MarkupEmptyChunks = "empty_after_cleaning"

// Region is a typed span of a body: an admonition's kind ("note") from
// Start to End.
type Region struct {
	Kind       string
	Start, End int
}

// Block is the smallest piece the chunker places: a paragraph, a list
// item's words, a code block, a table row, a heading with nothing under
// it. Start and End are offsets of the view.
type Block struct {
	Element    schema.Element
	Start, End int
	// Text is the view's [Start, End), or a table row's rendered form
	// ("Header: value; Header: value").
	Text string
	// Section is the headings above the block, outermost first, then the
	// title of the content tab it is in; blocks pack only within one
	// SectionID.
	Section   []string
	SectionID int
	Split     bool          // may be cut at sentence ends (prose), or never (code, rows)
	Table     int           // the table a row belongs to (0: none)
	List      int           // the list a block is in (0: none): an item's words, or code inside an item
	Item      int           // the list item a block is in (0: none)
	Group     int           // the admonition it is in (0: none)
	Tab       int           // the content tab it is in (0: none)
	TabStart  bool          // the first block of its tab
	Quote     bool          // a block quote (a callout, a note)
	Cells     []schema.Cell // a table row's cells
}

// source is the offset in Doc.Text of byte i of the view: i itself, unless
// a line's words were moved left.
func (b *Body) source(i int) int {
	if b.Origin == nil {
		return i
	}
	return b.Origin[i]
}

// Words is the text of the view's span [start, end) without its blanked
// markup: the source's words, in order. A line that held markup has its
// spaces collapsed and is dropped if nothing is left of it; a span that held
// none is returned as is.
func (p *Body) Words(start, end int) string {
	touched := false
	for _, r := range p.Removed[start:end] {
		if r {
			touched = true
			break
		}
	}
	if !touched {
		return p.View[start:end]
	}
	var out []string
	for ls := start; ls < end; {
		le := strings.IndexByte(p.View[ls:end], '\n')
		if le < 0 {
			le = end
		} else {
			le += ls
		}
		// Blanks removed at the line's end (the gap a line moved left
		// leaves, markup that ends it) took nothing from between its
		// words: such a line keeps its spacing (code in an admonition or a
		// tab keeps its indentation and alignment), only its end trimmed.
		end := le
		for end > ls && p.Removed[end-1] {
			end--
		}
		var b strings.Builder
		hit, gap := false, false
		for i := ls; i < end; i++ {
			if p.Removed[i] {
				hit, gap = true, true
				continue
			}
			if gap && b.Len() > 0 && p.View[i] != ' ' && !strings.HasSuffix(b.String(), " ") {
				b.WriteByte(' ') // "a<br>b" reads "a b"
			}
			gap = false
			b.WriteByte(p.View[i])
		}
		line := b.String()
		if end < le && !hit {
			line = strings.TrimRight(line, " \t")
			if t := strings.TrimSpace(line); t == "" || bareMarkerRe.MatchString(t) { // nothing left of it but markup, or a list marker
				ls = le + 1
				continue
			}
		}
		if hit {
			line = spaceBeforePunct.ReplaceAllString(strings.Join(strings.Fields(line), " "), "$1")
			if t := strings.TrimSpace(line); t == "" || bareMarkerRe.MatchString(t) { // nothing left but spaces, or a bare list marker
				ls = le + 1
				continue
			}
			if indent := len(p.View[ls:le]) - len(strings.TrimLeft(p.View[ls:le], " ")); indent > 0 && len(out) > 0 {
				line = strings.Repeat(" ", min(indent, 8)) + line // keep a list item's continuation indented
			}
		}
		out = append(out, line)
		ls = le + 1
	}
	text := strings.Join(out, "\n")
	for strings.Contains(text, "\n\n\n") {
		text = strings.ReplaceAll(text, "\n\n\n", "\n\n")
	}
	return strings.TrimSpace(text)
}

// HasWords reports whether text says anything once list markers and
// punctuation are set aside: "3." or "-" alone is not a chunk.
func HasWords(text string) bool {
	digits := false
	for _, r := range text {
		if unicode.IsLetter(r) {
			return true // a list marker holds no letter
		}
		digits = digits || unicode.IsDigit(r)
	}
	if !digits {
		return false
	}
	t := strings.TrimSpace(text) // digits alone: words only if not all list numbers
	t = listMarkerRe.ReplaceAllString(t, "")
	return strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// spaceBeforePunct is a space left before punctuation where markup went:
// "the version `{{% param vers %}}`." reads "the version."
var spaceBeforePunct = regexp.MustCompile(` ([.,;:!?)])`)

var listMarkerRe = regexp.MustCompile(`(?m)^\s*(?:[-*+]|\d{1,9}[.)])(?:\s|$)`)

// bareMarkerRe is a line that is only a list marker ("-", "3.") once its
// markup is gone. A fence ("```") left on a line whose indentation moved is
// kept: it closes code.
var bareMarkerRe = regexp.MustCompile(`^(?:[-*+]|\d{1,9}[.)])$`)

// metadata is the chunk's metadata: the document's configured front-matter
// keys, and the kind of an admonition the span lies in.
func (b *Body) metadata(start, end int) map[string][]string {
	var m map[string][]string
	for k, v := range b.Doc.Metadata {
		if m == nil {
			m = map[string][]string{}
		}
		m[k] = v
	}
	for key, rs := range map[string][]Region{"admonition": b.Notes, "included": b.Included} {
		for _, a := range rs {
			if start < a.End && a.Start < end {
				if m == nil {
					m = map[string][]string{}
				}
				if !slices.Contains(m[key], a.Kind) {
					m[key] = append(m[key], a.Kind)
				}
			}
		}
	}
	return m
}

// ViewSpan is the span of the view that source span [start, end) came
// from: they differ only on lines whose words moved left.
func (b *Body) ViewSpan(start, end int) (int, int) {
	vs := sort.Search(len(b.View), func(i int) bool { return b.source(i) >= start })
	ve := sort.Search(len(b.View), func(i int) bool { return b.source(i) >= end })
	for ve > vs && b.Removed[ve-1] { // the padding of a moved line
		ve--
	}
	return vs, ve
}
