package html

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// checkPage asserts what holds for every page's chunks: the body keeps its
// contract; a chunk's lines and bytes are the file's, its text the view's
// words of its span, never cut inside a sentence, and its words the
// page's in order (entities decoded, tags gone); and no block's words are
// dropped.
func checkPage(t *testing.T, ch *chunking.Chunker, p corpus.Parsed, chunks []schema.Chunk) {
	t.Helper()
	if p.Rejected {
		return
	}
	body, doc := p.Body, p.Doc
	if err := body.Check(); err != nil {
		t.Fatalf("the body breaks its contract: %v", err)
	}
	covered := make([]bool, len(body.View))
	ends := map[int]bool{} // where blocks end
	for _, b := range body.Blocks {
		ends[b.End] = true
	}
	var seen strings.Builder // every chunk's text, and the sections
	for _, c := range chunks {
		if c.ByteStart < doc.ContentStart || c.ByteEnd > len(doc.Text) || c.ByteStart >= c.ByteEnd {
			t.Fatalf("chunk %d: span %d-%d outside the content %d-%d", c.Order, c.ByteStart, c.ByteEnd, doc.ContentStart, len(doc.Text))
		}
		if want := lineOf(doc.Text, c.ByteStart); c.LineStart != want {
			t.Errorf("chunk %d: got line_start %d, want %d, the line of its first byte", c.Order, c.LineStart, want)
		}
		if want := lineOf(doc.Text, c.ByteEnd-1); c.LineEnd != want {
			t.Errorf("chunk %d: got line_end %d, want %d, the line of its last byte", c.Order, c.LineEnd, want)
		}
		vs, ve := body.ViewSpan(c.ByteStart, c.ByteEnd)
		for i := vs; i < ve; i++ {
			covered[i] = true
		}
		seen.WriteString(c.Text + "\n" + strings.Join(c.SectionPath, "\n") + "\n")
		if c.Element == schema.ElementTableRow {
			continue
		}
		if want := body.Words(vs, ve); c.Text != want {
			t.Errorf("chunk %d: got text %q, want the words of its span %q", c.Order, c.Text, want)
		}
		if !ends[ve] && body.CutInside(c.Element, vs, ve) {
			// chunking's figure reads words after a chunk on its line as a
			// cut; a page's blocks may share a line, so a block's end is none.
			t.Errorf("chunk %d ends mid-sentence: %q", c.Order, c.Text)
		}
		if n := ch.Measure(c.Text); n > ch.Config().Max && !c.Oversize {
			t.Errorf("chunk %d: %d over the budget %d and not marked oversize", c.Order, n, ch.Config().Max)
		}
		if w, ok := wordsInOrder(c.Text, shown(doc.Text[c.ByteStart:c.ByteEnd])); !ok {
			t.Errorf("chunk %d: word %q is not the page's, in order: %q", c.Order, w, c.Text)
		}
	}
	for _, b := range body.Blocks {
		switch {
		case b.Element == schema.ElementSectionHeading:
			continue
		case b.Element == schema.ElementTableRow:
			if !strings.Contains(seen.String(), b.Text) {
				t.Errorf("row %q dropped", b.Text)
			}
			continue
		case b.Element != schema.ElementCodeBlock && !chunking.HasWords(body.Words(b.Start, b.End)):
			continue
		}
		for i := b.Start; i < b.End; i++ {
			if !covered[i] && !body.Removed[i] && !unicode.IsSpace(rune(body.View[i])) {
				t.Errorf("block %q: byte %d (%q) in no chunk", b.Text, i, body.View[i])
				break
			}
		}
	}
}

var spaceBeforePunct = regexp.MustCompile(` ([.,;:!?)])`)

func lineOf(text string, off int) int { return 1 + strings.Count(text[:off], "\n") }

// shown is the words of a span of a page as a browser shows them: the
// text between tags, entities decoded, an image's alt text.
func shown(src string) string {
	z := nethtml.NewTokenizer(strings.NewReader(src))
	var b strings.Builder
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			// A no-break space reads as a space; a space before punctuation
			// goes, as chunking.Body.Words takes it out ("do :" reads "do:").
			return spaceBeforePunct.ReplaceAllString(strings.Join(strings.Fields(strings.ReplaceAll(b.String(), "\u00a0", " ")), " "), "$1")
		case nethtml.TextToken:
			b.Write(z.Text())
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			if t := z.Token(); t.DataAtom == atom.Img {
				for _, a := range t.Attr {
					if a.Key == "alt" {
						b.WriteString(a.Val)
					}
				}
			}
		}
	}
}

// wordsInOrder reports whether every word of text (list and heading
// markers aside: the format writes them) is found in src after the one
// before, and the first word that is not.
func wordsInOrder(text, src string) (string, bool) {
	at := 0
	for _, w := range strings.Fields(text) {
		if isMarker(w) {
			continue
		}
		i := strings.Index(src[at:], w)
		if i < 0 {
			// A word may be split by a tag in the page ("seaward</em>."):
			// its parts are in order.
			for _, part := range strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				j := strings.Index(src[at:], part)
				if j < 0 {
					return w, false
				}
				at += j + len(part)
			}
			continue
		}
		at += i + len(w)
	}
	return "", true
}

func isMarker(w string) bool {
	if w == "-" || strings.Trim(w, "#") == "" {
		return true
	}
	n := strings.TrimSuffix(w, ".")
	return n != w && n != "" && strings.Trim(n, "0123456789") == ""
}
