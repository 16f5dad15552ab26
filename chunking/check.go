package chunking

import "fmt"

// Check reports the first way b breaks the contract a format fills a Body
// by, which the chunker's offsets and line numbers rest on: the view as
// long as the text with the same newlines, Removed and Origin one entry a
// byte, every origin in the text (padding after the last line's words may
// have the text's end), on its byte's line and never decreasing, and every
// block and note a span of the view, blocks in order. Every format's tests
// and fuzzers hold their bodies to it.
func (b *Body) Check() error {
	text, view := b.Doc.Text, b.View
	if len(view) != len(text) {
		return fmt.Errorf("view of %d bytes, text of %d", len(view), len(text))
	}
	if len(b.Removed) != len(view) {
		return fmt.Errorf("removed has %d entries, view %d bytes", len(b.Removed), len(view))
	}
	if b.Origin != nil && len(b.Origin) != len(view) {
		return fmt.Errorf("origin has %d entries, view %d bytes", len(b.Origin), len(view))
	}
	line, prev := 0, 0 // the current line's start; the last origin
	for i := 0; i < len(view); i++ {
		if (view[i] == '\n') != (text[i] == '\n') {
			return fmt.Errorf("byte %d: a newline in one of view and text only", i)
		}
		o := b.source(i)
		if o < prev || o < line || o > len(text) || o == len(text) && view[i] != ' ' {
			return fmt.Errorf("byte %d: origin %d outside its line (from %d) or before the last (%d)", i, o, line, prev)
		}
		if view[i] == '\n' {
			if o != i {
				return fmt.Errorf("byte %d: a newline moved", i)
			}
			line = i + 1
		}
		prev = o
	}
	start := 0
	for k, bl := range b.Blocks {
		if bl.Start < 0 || bl.End > len(view) || bl.Start >= bl.End {
			return fmt.Errorf("block %d: span %d-%d outside the view (%d bytes) or empty", k, bl.Start, bl.End, len(view))
		}
		if bl.Start < start && bl.Element != "section_heading" {
			return fmt.Errorf("block %d: starts at %d, before the block before it (%d)", k, bl.Start, start)
		}
		if bl.Element != "section_heading" {
			start = bl.Start
		}
	}
	for k, n := range b.Notes {
		if n.Start < 0 || n.End > len(view) || n.Start > n.End {
			return fmt.Errorf("note %d: span %d-%d outside the view", k, n.Start, n.End)
		}
	}
	return nil
}
