package searchtext

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// Of is a chunk's search text: Context, a blank line, Clean of its text.
func Of(c schema.Chunk) string { return Context(c) + "\n\n" + Clean(c.Text) }

// Context is the part of a search text before its blank line: the chunk's
// section path, each part followed by " › ", then its context header.
func Context(c schema.Chunk) string {
	n := len(c.ContextHeader)
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
	return b.String()
}

// Fields are the two parts of a chunk's search text, which BM25 weighs
// apart: its context and its cleaned text. They are read from the chunk's
// SearchText, the bytes a consumer indexes; a row of a snapshot before
// schema 5 has none, and is cleaned as Of cleans now.
func Fields(c schema.Chunk) (context, text string) {
	context, st := Context(c), c.SearchText
	if st == "" {
		return context, Clean(c.Text)
	}
	if text, ok := strings.CutPrefix(st, context+"\n\n"); ok {
		return context, text
	}
	context, text, _ = strings.Cut(st, "\n\n") // written with another context than this build's: split where it was joined
	return context, text
}
