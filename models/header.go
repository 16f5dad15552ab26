package models

import (
	"context"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/sentence"
)

// HeaderWriter enriches a chunk: a one-line context header (the document and
// section it comes from and what it is about, for a reader or a small model
// that sees the chunk alone) and, where a model writes it, extracted fields.
type HeaderWriter interface {
	// Name identifies the writer (and its model digest and prompt version) in
	// the manifest and in cache keys.
	Name() string
	// Header enriches one chunk. An error stops the run (a dead server); an
	// answer the writer cannot use is not an error: it falls back to the
	// extractive header and says so in Enrichment.Source and Reject.
	Header(ctx context.Context, doc schema.Document, c schema.Chunk) (Enrichment, error)
}

// Enrichment is what a HeaderWriter produced for one chunk.
type Enrichment struct {
	Header string
	Source string // schema.HeaderExtractive, HeaderModel or HeaderExtractiveFallback
	Fields schema.Fields
	// Thresholds are the model's proposals; the pipeline keeps only those the
	// units parser finds in the chunk's text (grounded), and counts the rest.
	Thresholds []ProposedThreshold
	// Reject is the raw answer that could not be used, for the report, and
	// RejectReasons why (the Reason constants); a chunk not sent at all has
	// reasons and no answer.
	Reject        string
	RejectReasons []string
	Calls         int // model calls made, repairs included
}

// ProposedThreshold is a threshold as a model states it.
type ProposedThreshold struct {
	Subject    string  `json:"subject"`
	Comparator string  `json:"comparator"`
	Value      float64 `json:"value"`
	Unit       string  `json:"unit"`
}

var _ HeaderWriter = (*Extractive)(nil)

// Extractive is the offline header writer: title › section path: the chunk's
// first sentence, capped in length. Deterministic and free.
type Extractive struct {
	maxChars int
}

// NewExtractive returns the offline header writer capped at maxChars runes.
func NewExtractive(maxChars int) *Extractive { return &Extractive{maxChars: maxChars} }

// Name implements HeaderWriter.
func (*Extractive) Name() string { return "extractive-v3" } // v2: a code block is named, not quoted; v3: the sentence read without Markdown syntax

// Header implements HeaderWriter.
func (e *Extractive) Header(_ context.Context, doc schema.Document, c schema.Chunk) (Enrichment, error) {
	return Enrichment{Header: ExtractiveHeader(doc.Title, c, e.maxChars), Source: schema.HeaderExtractive}, nil
}

// ExtractiveHeader builds the extractive header of c. It is exported for the
// model-backed writers, whose failures fall back to it.
func ExtractiveHeader(title string, c schema.Chunk, maxChars int) string {
	var b strings.Builder
	b.WriteString(title)
	for _, s := range c.SectionPath {
		b.WriteString(" › ")
		b.WriteString(s)
	}
	switch first := sentence.First(plainProse(c.Text)); {
	case c.Element == schema.ElementCodeBlock:
		// Code's first "sentence" is a line of code: say what it is instead.
		b.WriteString(": code")
		if lang := fenceLang(c.Text); lang != "" {
			b.WriteString(" (" + lang + ")")
		}
	case first != "":
		b.WriteString(": ")
		b.WriteString(first)
	}
	return capRunes(b.String(), maxChars)
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

// locationHeader is the extractive header without the chunk's first
// sentence: title › section path. For a chunk whose words must not be
// quoted (it reads as instructions to a model).
func locationHeader(title string, c schema.Chunk, maxChars int) string {
	var b strings.Builder
	b.WriteString(title)
	for _, s := range c.SectionPath {
		b.WriteString(" › ")
		b.WriteString(s)
	}
	return capRunes(b.String(), maxChars)
}

// capRunes cuts s to at most n runes at a word boundary, marking the cut with "…".
func capRunes(s string, n int) string {
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

// plainProse is Markdown prose as a reader sees it, for the header's
// sentence: quote markers, GitHub and Obsidian callout markers ("[!NOTE]")
// and list markers at line starts removed, links and images read as their
// text (an autolink as its address), strong emphasis unmarked, lines joined. The chunk's text itself
// stays verbatim.
func plainProse(text string) string {
	// A header quotes one sentence, capped: the start of the chunk is
	// enough, however long the chunk.
	if len(text) > plainProseBytes {
		cut := plainProseBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		for strings.HasPrefix(l, ">") {
			l = strings.TrimSpace(l[1:])
		}
		if strings.HasPrefix(l, "[!") {
			if m := calloutMarker.FindString(l); m != "" {
				l = strings.TrimSpace(l[len(m):])
			}
		}
		lines[i] = strings.TrimLeft(withoutListMarker(l), " \t")
	}
	s := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	if strings.Contains(s, "](") {
		s = mdLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "][") {
		s = refLink.ReplaceAllString(s, "$1")
	}
	if strings.Contains(s, "<") {
		s = autoLink.ReplaceAllString(s, "$1")
	}
	return emphasis.Replace(s)
}

// plainProseBytes is how much of a chunk the header's sentence is read
// from: five times the longest header (200 characters by default).
const plainProseBytes = 1024

var emphasis = strings.NewReplacer("**", "", "__", "")

var (
	calloutMarker = regexp.MustCompile(`^\[![A-Za-z]+\][+-]?`)
	autoLink      = regexp.MustCompile(`<((?:https?|mailto):[^>\s]+)>`)
	mdLink        = regexp.MustCompile(`!?\[([^\]\n]*)\]\((?:<[^>\n]*>|[^)\s]*)(?:\s+(?:"[^"]*"|'[^']*'))?\)`)
	refLink       = regexp.MustCompile(`\[([^\]\n]+)\]\[[^\]\n]*\]`)
)

// withoutListMarker is l without a list item's marker ("- ", "* ", "+ ",
// "12. ", "3) ") at its start.
func withoutListMarker(l string) string {
	i := 0
	for i < len(l) && i < 9 && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	switch {
	case i > 0 && i < len(l) && (l[i] == '.' || l[i] == ')'):
		i++
	case i == 0 && l != "" && strings.IndexByte("-*+", l[0]) >= 0:
		i = 1
	default:
		return l
	}
	if i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		return l[i+1:]
	}
	return l
}
