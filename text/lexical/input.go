package lexical

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/searchtext"
	"github.com/ocean-safety/ingest/units"
)

// EmbedInput is what the embedder reads for a chunk: its search text
// (searchtext.Of: its context, and its text as a reader sees it; the stored
// text stays verbatim) and the canonical form of its converted quantities
// ("5 ft [1.52 m]").
func EmbedInput(c schema.Chunk) string { return withQuantities(searchtext.Of(c), c.Quantities) }

// EmbeddedInput is what the embedder read for a row of a snapshot, the key
// its vector is offered for reuse under: its search_text column with the
// quantities, or, for a row of a snapshot before schema 5 (no search_text),
// what EmbedInput was then, its text verbatim. A chunk whose text a reader
// sees as written keeps its vector across the change; one with markup
// searchtext.Clean removes is embedded again.
func EmbeddedInput(row schema.Chunk) string {
	if row.SearchText == "" {
		return withQuantities(searchtext.Context(row)+"\n\n"+row.Text, row.Quantities)
	}
	return withQuantities(row.SearchText, row.Quantities)
}

// withQuantities is text followed, after a blank line, by the canonical
// form of the quantities it converted, when there are any.
func withQuantities(text string, qs []schema.Quantity) string {
	if q := canonicalSuffix(qs); q != "" {
		return text + "\n\n" + q
	}
	return text
}

// canonicalSuffix is what the embedder reads after a chunk's text: each
// converted quantity with its canonical form ("5 ft [1.52 m]"), so both
// spellings of a measurement land near each other.
func canonicalSuffix(qs []schema.Quantity) string {
	var b strings.Builder
	for _, q := range qs {
		canon := units.FormatSI(q.SIValue, q.SIUnit)
		if strings.EqualFold(strings.TrimSpace(q.Unit), q.SIUnit) {
			continue // already canonical
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(q.Surface)
		b.WriteString(" [")
		b.WriteString(canon)
		b.WriteString("]")
	}
	return b.String()
}
