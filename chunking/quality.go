package chunking

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// Quality is what a reader would judge of a corpus's chunks, counted the
// same way before and after a change to the chunker: fragments, lead-ins cut
// off from what they introduce, code without the words that say what it
// does, headers that changed what they quote, cuts inside a sentence, and
// the size distribution in the budget's unit. Give it chunks with their
// context headers filled in (ingest chunk --stats uses the extractive
// writer).
type Quality struct {
	Documents int
	Chunks    int
	// Sizes are the chunks' sizes by kind/element in the budget's unit, and
	// the prose chunks of the kinds whose pieces merge
	// (schema.KindRules.MergesSmall: a safety rule or a lore paragraph is a
	// chunk whatever its size) under chunk.min.
	Sizes schema.SizeTally
	// NonCode counts the chunks that are not code; Tiny those of them under
	// TinyChars characters.
	NonCode, Tiny int
	// Dangling counts the chunks that end in ":" while the next chunk of
	// their document neither holds nor carries (as its lead-in) what they
	// introduce.
	Dangling int
	// Code counts code chunks; Bare those whose header names only the
	// language; Introduced those whose source has prose right before the
	// code, and Carried those of them that hold or carry that prose.
	Code, Bare, Introduced, Carried int
	// HeadingOnly counts chunks that are only a heading or a list marker.
	HeadingOnly int
	// OddBackticks counts headers with an odd number of backticks; Unfaithful
	// headers whose quoted sentence lost a leading sign, #, backtick or
	// emphasis mark the chunk's text has.
	OddBackticks, Unfaithful int
	// InSentence counts chunks whose span stops inside a sentence.
	InSentence int
	// Banded counts the prose chunks (paragraphs, list items) of the kinds
	// held to the band (schema.KindRules.Banded: prose) whose section
	// holds more than chunk.min; InBand those of
	// them between chunk.min and chunk.max: where a section is long enough,
	// chunks should sit in the band.
	Banded, InBand int
	// Debris is the site markup left in chunks (debris.go).
	Debris Debris

	max      int
	examples map[string][]string // a few chunk keys per problem, for a reader to look at
}

// TinyChars is the size under which a chunk that is not code says too
// little to be retrieved alone.
const TinyChars = 40

// NewQuality counts chunks cut by c.
func NewQuality(c *Chunker) *Quality {
	return &Quality{Sizes: schema.SizeTally{Unit: c.cfg.Unit, Min: c.cfg.Min}, max: c.cfg.Max, examples: map[string][]string{}}
}

// codeOnlyHeader is an extractive header that says of code only that it is
// code (and in which language).
var codeOnlyHeader = regexp.MustCompile(`^code(?: \([^)]*\))?$`)

// Add counts one document's chunks, cut by c from p, with headers filled in.
func (q *Quality) Add(c *Chunker, p *Body, chunks []schema.Chunk) {
	q.Documents++
	q.Debris.UnknownBlocks += p.Markup[MarkupUnknownBlock]
	section := map[string]int{} // the size of each section, as the sum of its chunks'
	for _, ch := range chunks {
		section[strings.Join(ch.SectionPath, "\x1f")] += c.size.Count(ch.Text)
	}
	for _, ch := range chunks {
		if ch.Kind.Rules().Banded && (ch.Element == schema.ElementParagraph || ch.Element == schema.ElementListItem) &&
			section[strings.Join(ch.SectionPath, "\x1f")] > c.cfg.Min {
			q.Banded++
			if n := c.size.Count(ch.Text); n >= c.cfg.Min && n <= c.cfg.Max {
				q.InBand++
			}
		}
	}
	for i, ch := range chunks {
		q.Chunks++
		q.Sizes.Add(ch)
		code := ch.Element == schema.ElementCodeBlock
		if !code {
			q.NonCode++
			if utf8.RuneCountInString(ch.Text) < TinyChars {
				q.Tiny++
				q.example("tiny", ch)
			}
			if ch.Element != schema.ElementTableRow && endsWithColon(ch.Text) && i+1 < len(chunks) && !carries(chunks[i+1], ch.Text) {
				q.Dangling++
				q.example("dangling", ch)
			}
		}
		if code {
			q.Code++
			if codeOnlyHeader.MatchString(quoted(ch)) {
				q.Bare++
			}
			holds := !startsWithCode(ch.Text)
			if holds || p.proseBefore(ch.ByteStart) {
				q.Introduced++
				if holds || ch.LeadIn != "" {
					q.Carried++
				} else {
					q.example("code without its lead-in", ch)
				}
			}
		}
		if ch.Element == schema.ElementSectionHeading || !HasWords(ch.Text) && !code {
			q.HeadingOnly++
			q.example("heading only", ch)
		}
		if strings.Count(ch.ContextHeader, "`")%2 == 1 {
			q.OddBackticks++
			q.example("odd backticks", ch)
		}
		if !faithful(ch) {
			q.Unfaithful++
			q.example("header changed a sign", ch)
		}
		if CutInSentence(p, ch) {
			q.InSentence++
			q.example("cut inside a sentence", ch)
		}
		for _, what := range q.Debris.add(ch, headerQuote(ch)) {
			q.example(what, ch)
		}
	}
}

// Examples are a few chunk keys per problem counted, for a reader to look at.
func (q *Quality) Examples() map[string][]string { return q.examples }

func (q *Quality) example(what string, c schema.Chunk) {
	if len(q.examples[what]) < 3 {
		q.examples[what] = append(q.examples[what], c.Key())
	}
}

// carries reports whether next holds the words that end text, the chunk
// before it: as its lead-in, or in its own text (an overlap repeats them).
func carries(next schema.Chunk, text string) bool {
	if next.LeadIn != "" {
		return true
	}
	ss := sentence.Split(text)
	return len(ss) > 0 && strings.Contains(next.Text, text[ss[len(ss)-1].Start:ss[len(ss)-1].End])
}

// startsWithCode reports whether a code chunk's text opens with its code
// (a fence or an indented line) rather than with the words before it.
func startsWithCode(text string) bool {
	t := strings.TrimLeft(text, "\n")
	return strings.HasPrefix(strings.TrimLeft(t, " "), "```") || strings.HasPrefix(strings.TrimLeft(t, " "), "~~~") ||
		strings.HasPrefix(t, "    ") || strings.HasPrefix(t, "\t")
}

// proseBefore reports whether the last line with words before offset off of
// the document (markup blanked) is prose: not a heading, a fence, a table
// row or the end of another block of code.
func (p *Body) proseBefore(off int) bool {
	end := min(off, len(p.View))
	for end > p.Doc.ContentStart {
		start := strings.LastIndexByte(p.View[:end], '\n') + 1
		line := strings.TrimSpace(p.View[start:end])
		end = start - 1
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "#"), strings.HasPrefix(line, "```"), strings.HasPrefix(line, "~~~"),
			strings.HasPrefix(line, "|"), strings.Trim(line, "=-") == "", !HasWords(line):
			return false
		}
		return true
	}
	return false
}

// quoted is the part of an extractive header after its location (title ›
// section path): the sentence it quotes, or what it says of code.
func quoted(c schema.Chunk) string {
	loc := c.DocTitle
	for _, s := range c.SectionPath {
		loc += " › " + s
	}
	q, ok := strings.CutPrefix(c.ContextHeader, loc+": ")
	if !ok {
		return ""
	}
	return q
}

// headerQuote is what a header says past its location; the whole header
// when it does not start with it (a model's).
func headerQuote(c schema.Chunk) string {
	if q := quoted(c); q != "" {
		return q
	}
	return c.ContextHeader
}

// faithful reports whether a header's quoted sentence keeps the leading
// sign, #, backtick or emphasis mark of the chunk's first word.
func faithful(c schema.Chunk) bool {
	if c.Element == schema.ElementCodeBlock || c.Element == schema.ElementTableRow || c.LeadIn != "" {
		return true
	}
	first, q := firstWord(c.Text), quoted(c)
	if first == "" || q == "" || !strings.ContainsRune("-+#`~", rune(first[0])) {
		return true
	}
	return q[0] == first[0]
}

// CutInSentence reports a chunk whose span stops inside a sentence: words
// follow it on its last line (blanked markup and blanks do not count:
// "Text {{< /alert >}}" ends a block, and so does a line whose words moved
// left over its indentation) and it ends without a terminator.
func CutInSentence(p *Body, c schema.Chunk) bool {
	vs, ve := p.ViewSpan(c.ByteStart, c.ByteEnd)
	return p.CutInside(c.Element, vs, ve)
}

// CutInside is CutInSentence for the view's span [vs, ve).
func (p *Body) CutInside(el schema.Element, vs, ve int) bool {
	text, i := p.View, ve
	for i < len(text) && text[i] != '\n' && (p.Removed[i] || text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && text[i] != '\n' && midSentence(text, el, vs, ve)
}

// midSentence reports a chunk that stops inside a line without a sentence
// terminator: every cut that is not a block end must follow one.
func midSentence(text string, el schema.Element, start, end int) bool {
	if el == schema.ElementTableRow || end == len(text) || text[end] == '\n' {
		return false
	}
	last := strings.TrimRight(text[start:end], "\"'”’)]*_")
	return !strings.HasSuffix(last, ".") && !strings.HasSuffix(last, "!") && !strings.HasSuffix(last, "?") && !strings.HasSuffix(last, "…")
}

// firstWord is the first word of a chunk's text past list and quote markers.
func firstWord(text string) string {
	for _, f := range strings.Fields(text) {
		switch {
		case f == "-" || f == "*" || f == "+" || strings.Trim(f, ">") == "":
			continue
		case strings.TrimRight(f, "0123456789") != f && (strings.HasSuffix(f, ".") || strings.HasSuffix(f, ")")) && strings.Trim(f, "0123456789.)") == "":
			continue // "12." of a numbered item
		}
		return f
	}
	return ""
}

// Write prints the figures as a small table, one line a figure.
func (q *Quality) Write(w io.Writer, name string) {
	pct := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
	}
	sz := &q.Sizes
	st := sz.Sizes.Stats("")
	fmt.Fprintf(w, "%s: %d documents, %d chunks (budget %d %s, min %d)\n", name, q.Documents, q.Chunks, q.max, sz.Unit, sz.Min)
	fmt.Fprintf(w, "  prose chunks under chunk.min          %6d  %s of %d\n", sz.UnderMin, pct(sz.UnderMin, sz.Prose), sz.Prose)
	fmt.Fprintf(w, "  non-code chunks under %d characters   %6d  %s of %d\n", TinyChars, q.Tiny, pct(q.Tiny, q.NonCode), q.NonCode)
	fmt.Fprintf(w, "  ending in \":\", cut from what follows %6d  %s of %d\n", q.Dangling, pct(q.Dangling, q.Chunks), q.Chunks)
	fmt.Fprintf(w, "  code chunks, header only the language %6d  %s of %d\n", q.Bare, pct(q.Bare, q.Code), q.Code)
	fmt.Fprintf(w, "  code with a lead-in that carries it   %6d  %s of %d introduced\n", q.Carried, pct(q.Carried, q.Introduced), q.Introduced)
	fmt.Fprintf(w, "  heading- or marker-only chunks        %6d\n", q.HeadingOnly)
	fmt.Fprintf(w, "  headers with odd backticks            %6d\n", q.OddBackticks)
	fmt.Fprintf(w, "  headers that lost a sign or mark      %6d\n", q.Unfaithful)
	fmt.Fprintf(w, "  cuts inside a sentence                %6d\n", q.InSentence)
	fmt.Fprintf(w, "  prose of long sections in min..max    %6d  %s of %d\n", q.InBand, pct(q.InBand, q.Banded), q.Banded)
	fmt.Fprintf(w, "  size (%s): p10 %d, median %d, p90 %d, max %d\n", sz.Unit, st.P10, st.Median, st.P90, st.Max)
	for _, g := range sz.Sizes.Groups() {
		s := sz.Sizes.Stats(g)
		fmt.Fprintf(w, "    %-28s %6d chunks  p10 %4d  median %4d  p90 %4d  max %5d\n", g, s.Count, s.P10, s.Median, s.P90, s.Max)
	}
	d := q.Debris
	fmt.Fprintf(w, "  site markup left in chunks            %6d\n", d.Total())
	fmt.Fprintf(w, "    starting with a block marker        %6d\n", d.MarkerStart)
	fmt.Fprintf(w, "    attribute lists in title or path    %6d\n", d.AttrInPath)
	fmt.Fprintf(w, "    attribute lists in non-code text    %6d\n", d.AttrInText)
	fmt.Fprintf(w, "    include markers in non-code text    %6d\n", d.RawInclude)
	fmt.Fprintf(w, "    mkdocstrings options as code        %6d\n", d.DirectiveCode)
	fmt.Fprintf(w, "  include markers left in code          %6d\n", d.IncludeInCode)
	fmt.Fprintf(w, "    unknown block markers blanked       %6d\n", d.UnknownBlocks)
	for _, what := range []string{"tiny", "dangling", "code without its lead-in", "heading only", "odd backticks", "header changed a sign", "cut inside a sentence",
		"starts with a block marker", "attribute list in its path", "attribute list in its text", "include marker in its text", "directive options as code", "include marker in its code"} {
		if ex := q.examples[what]; len(ex) > 0 {
			fmt.Fprintf(w, "  e.g. %s: %s\n", what, strings.Join(ex, ", "))
		}
	}
}
