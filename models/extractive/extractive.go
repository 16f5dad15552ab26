package extractive

import (
	"context"
	"regexp"
	"strings"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

var _ models.HeaderWriter = (*Extractive)(nil)

// Extractive is the offline header writer: title › section path: the chunk's
// first sentence, capped in length. Deterministic and free.
type Extractive struct {
	maxChars int
}

// New returns the offline header writer capped at maxChars runes.
func New(maxChars int) *Extractive { return &Extractive{maxChars: maxChars} }

// Offline reports that the writer is free and deterministic, calling no
// server (see models.Offline).
func (*Extractive) Offline() bool { return true }

// Name implements HeaderWriter.
//
// v2: a code block is named, not quoted; v3: the sentence read without
// Markdown syntax; v4: the sentence quoted as written (a leading sign, #
// or backtick kept, backticks balanced), a chunk's lead-in named before it,
// code named by the words that introduce it; v5: a chunk that opens with an
// aside (a callout, a note's label) headed by what follows it, footnote
// markers left out, entities and backslash escapes read as characters, a
// callout's title joined to its words by a colon.
func (*Extractive) Name() string { return "extractive-v5" }

// Header implements HeaderWriter.
func (e *Extractive) Header(_ context.Context, doc schema.Document, c schema.Chunk) (models.Enrichment, error) {
	return models.Enrichment{Header: Header(doc.Title, c, e.maxChars), Source: schema.HeaderExtractive}, nil
}

// Calls implements HeaderWriter: the extractive writer calls no model.
func (*Extractive) Calls(schema.Chunk) bool { return false }

// Header builds the extractive header of c: title › section path:
// what the chunk is about. It is exported for the model-backed writers,
// whose failures fall back to it.
func Header(title string, c schema.Chunk, maxChars int) string {
	loc := LocationHeader(title, c, maxChars)
	about := aboutChunk(c)
	if about == "" {
		return loc
	}
	return balanceBackticks(sentence.Cap(locationOf(title, c)+": "+about, maxChars), maxChars)
}

// aboutChunk is what an extractive header says a chunk is about: its first
// sentence (past an aside it opens with: a tip is not its point), after the lead-in that introduces it when the chunk does not
// hold it ("Never swim when: the water is brown."). Code's first line is
// not a sentence: code is named by the words before it in the chunk, else
// its lead-in, else only as code, with its language.
func aboutChunk(c schema.Chunk) string {
	lead := ""
	if c.LeadIn != "" {
		lead = plainProse(c.LeadIn)
	}
	if c.Element == schema.ElementCodeBlock {
		words, fence := splitAtFence(c.Text)
		if i := strings.LastIndex(strings.TrimRight(words, " \n"), "\n\n"); i >= 0 {
			words = words[i+2:] // the paragraph right before the code
		}
		about := lastSentences(plainProse(words))
		if about == "" {
			about = lead
		}
		if about == "" {
			about = "code"
		}
		if lang := fenceLang(fence); lang != "" {
			about += " (" + lang + ")"
		}
		return about
	}
	first := sentence.First(plainProse(opening(pastAsides(c.Text))))
	if first == "" {
		first = sentence.First(plainProse(opening(c.Text))) // all the chunk says is an aside
	}
	if lead == "" || first == "" {
		return lead + first
	}
	return lead + " " + first
}

// opening is the part of a chunk's text its first sentence is read from,
// block by block, so a sentence never runs from one block into the next (a
// list item has no full stop; a chunk that runs into the next section would
// have its first "sentence" go on into that section): the first paragraph,
// and while the words so far end no sentence, the next (a lead-in's list,
// "Make sure you have:" and "- Go 1.23 or later", ends there), at most
// three. Heading lines are the path's and are passed over.
func opening(text string) string {
	var parts []string
	for rest := text; rest != "" && len(parts) < 3; {
		var p string
		p, rest, _ = strings.Cut(strings.TrimLeft(rest, " \t\n"), "\n\n")
		if strings.TrimSpace(p) == "" || headingsOnly(p) {
			continue
		}
		parts = append(parts, p)
		end := strings.TrimRight(p, " \t\n*_)\"'”’")
		if strings.HasSuffix(end, ".") || strings.HasSuffix(end, "!") || strings.HasSuffix(end, "?") || strings.HasSuffix(end, "…") ||
			len(parts) > 1 && sentence.MarkerLen(strings.TrimLeft(p, " \t")) > 0 {
			break // a sentence ends, or a lead-in's list does
		}
	}
	return strings.Join(parts, "\n\n")
}

// pastAsides is a chunk's text from its first paragraph that is not an
// aside: a callout ("> [!TIP]") or a paragraph under a note's label
// ("> **Note:** …", "**Warning**: …") that the chunk opens with, with the
// quoted paragraphs that go on with it. A reader takes such a paragraph as
// said in passing; the chunk's point is what follows it ("To validate a
// configuration file, use the validate command"). "" when nothing follows.
func pastAsides(text string) string {
	quote := false // the aside passed over is a quote, which ">" lines go on
	for rest := text; ; {
		p, after, found := strings.Cut(strings.TrimLeft(rest, " \t\n"), "\n\n")
		switch {
		case strings.TrimSpace(p) == "" && !found:
			return ""
		case strings.TrimSpace(p) == "" || headingsOnly(p):
		case isAside(p):
			quote = strings.HasPrefix(strings.TrimSpace(p), ">")
		case quote && strings.HasPrefix(strings.TrimSpace(p), ">"):
		default:
			return strings.TrimLeft(rest, " \t\n")
		}
		if !found {
			return ""
		}
		rest = after
	}
}

// isAside reports a paragraph that opens as an aside: a callout's marker in
// a quote, or a note's label in bold, quoted or not.
func isAside(p string) bool {
	l, _, _ := strings.Cut(strings.TrimSpace(p), "\n")
	quoted := strings.HasPrefix(l, ">")
	for strings.HasPrefix(l, ">") {
		l = strings.TrimSpace(l[1:])
	}
	return quoted && calloutMarker.MatchString(l) || noteLabel.MatchString(l)
}

// noteLabel is a note's label in bold at a paragraph's start, in English
// or Portuguese, after at most a symbol ("✨ **NOTE:** ✨").
var noteLabel = regexp.MustCompile(`^(?:\S{1,2}\s+)?(?:\*\*|__)(?i:note|nb|tip|hint|warning|caution|important|attention|nota|dica|aviso|atenção|importante|cuidado|observação)\b`)

// headingsOnly reports whether a paragraph is only heading lines (ATX, or
// setext with its underline).
func headingsOnly(p string) bool {
	lines := strings.Split(strings.TrimSpace(p), "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if !isHeading(l) && !isUnderline(l) && !(i+1 < len(lines) && isUnderline(strings.TrimSpace(lines[i+1]))) {
			return false
		}
	}
	return true
}

// splitAtFence splits a code chunk's text at its first code fence: the
// words that come before it (a lead-in joined with its code) and the code.
func splitAtFence(text string) (words, code string) {
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		if l := strings.TrimLeft(text[off:end], " \t"); strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			return text[:off], text[off:]
		}
		off = end + 1
	}
	return "", text
}

// lastSentences is the end of a text that introduces code: its last
// sentence, with the one before when that is short ("For example:").
func lastSentences(text string) string {
	ss := sentence.Split(text)
	if len(ss) == 0 {
		return ""
	}
	first, end := len(ss)-1, ss[len(ss)-1].End
	if first > 0 && end-ss[first].Start < 60 {
		first--
	}
	return strings.TrimSpace(text[ss[first].Start:end])
}

// balanceBackticks makes a header's inline code whole: a code span that a
// cut (or a sentence end inside it: "`f(a, ...)`") left open is closed,
// before the ellipsis of a cut, within max runes. A header with an odd
// number of backticks reads as code running to its end; dropping the
// opening one instead would change what it quotes.
func balanceBackticks(h string, max int) string {
	if strings.Count(h, "`")%2 == 0 {
		return h
	}
	r := []rune(h)
	tail := "`"
	if r[len(r)-1] == '…' {
		r, tail = r[:len(r)-1], "`…"
	}
	for len(r)+len([]rune(tail)) > max && len(r) > 0 {
		r = r[:len(r)-1]
	}
	return string(r) + tail
}

// fenceLang is the language a fenced code block names: "```yaml" → yaml.
func fenceLang(code string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(code), "\n")
	info := strings.TrimLeft(first, "`~")
	if info == first {
		return ""
	}
	if f := strings.Fields(strings.Trim(info, "{}. ")); len(f) > 0 && len(f[0]) <= 20 {
		return f[0]
	}
	return ""
}

// LocationHeader is the extractive header without the chunk's first
// sentence: title › section path. For a chunk whose words must not be
// quoted (it reads as instructions to a model).
func LocationHeader(title string, c schema.Chunk, maxChars int) string {
	return balanceBackticks(sentence.Cap(locationOf(title, c), maxChars), maxChars)
}

// locationOf is title › section path.
func locationOf(title string, c schema.Chunk) string {
	var b strings.Builder
	b.WriteString(title)
	for _, s := range c.SectionPath {
		b.WriteString(" › ")
		b.WriteString(s)
	}
	return b.String()
}
