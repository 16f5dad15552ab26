package lexical

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

// EmbedInput is what the embedder reads for a chunk: its section path, its
// context header, its text and the canonical form of its converted
// quantities ("5 ft [1.52 m]"). The stored text stays verbatim.
func EmbedInput(c schema.Chunk) string {
	q := canonicalSuffix(c.Quantities)
	n := len(c.ContextHeader) + len("\n\n") + len(c.Text) + len("\n\n") + len(q)
	for _, s := range c.SectionPath {
		n += len(s) + len(" › ")
	}
	var b strings.Builder
	b.Grow(n) // one allocation: it runs for every chunk, and again for every reused row
	for _, s := range c.SectionPath {
		b.WriteString(s)
		b.WriteString(" › ")
	}
	b.WriteString(c.ContextHeader)
	b.WriteString("\n\n")
	b.WriteString(c.Text)
	if q != "" {
		b.WriteString("\n\n")
		b.WriteString(q)
	}
	return b.String()
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
