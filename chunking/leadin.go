package chunking

import (
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// A lead-in is the paragraph (or list item) that introduces the block under
// it: "To install it, run:" and the command, "Never swim when:" and the
// rules, a sentence and the table it describes. A reader needs the two
// together: the command without the words that say what it does is as
// useless as the words without the command. The packer joins a lead-in with
// what it introduces where the two fit the budget; where they do not, every
// piece of what it introduces carries it (schema.Chunk.LeadIn), and headers
// name it.

// leadIns gives, for every block, the index of the block that introduces it,
// or -1. What a lead-in introduces is a run: the list under it (its items and
// the code in them), the rows of the table under it, or the code blocks
// under it (one after another, also across the tabs of a tab pane). An
// inner lead-in wins over an outer one: in "Steps:" and a list whose first
// item ends "run:" before its code, the code is introduced by the item.
func leadIns(cut schema.Cut, bs []block) []int {
	intro := make([]int, len(bs))
	for i := range intro {
		intro[i] = -1
	}
	for i := 0; i+1 < len(bs); i++ {
		if !introduces(cut, bs[i], bs[i+1]) {
			continue
		}
		intro[i+1] = i
		for j := i + 2; j < len(bs) && inRun(bs[i+1], bs[j]); j++ {
			intro[j] = i
		}
	}
	return intro
}

// introduces reports whether a, a text block, introduces b, the block right
// after it. In prose a paragraph introduces the list, code or table right
// under it in its section, and a list item the code inside it; anything else
// only when it ends with ":" — which also introduces a paragraph (a quote,
// an image), and the first block of the next section when it is the last
// words of its own ("Here are the key signals:" over "### Traces").
// The blocks of a block cut (safety rules, lore paragraphs) are each read
// alone, so there only a ":" makes a lead-in.
func introduces(cut schema.Cut, a, b block) bool {
	if !a.split || a.el != schema.ElementParagraph && a.el != schema.ElementListItem || b.el == schema.ElementSectionHeading {
		return false
	}
	colon := endsWithColon(a.text)
	if a.quote && !colon {
		return false // a quote or callout before code is about itself
	}
	if b.el == schema.ElementParagraph && !colon {
		return false
	}
	if a.group != b.group {
		return false
	}
	if a.sectionID != b.sectionID && !colon {
		return false // a section's last words introduce the next only with a ":"
	}
	if a.tab != b.tab && (a.tab != 0 || !b.tabStart) {
		return false // a tab pane's lead-in stands before it, outside every tab
	}
	if a.el == schema.ElementListItem && b.list == a.list && b.el == schema.ElementListItem {
		return false // the next item of the same list: a sibling
	}
	if cut != schema.CutSection {
		return colon
	}
	switch {
	case a.el == schema.ElementParagraph && b.el != schema.ElementParagraph:
		return true
	case b.item == a.item: // the code of a list item, under its words
		return true
	}
	return colon
}

// inRun reports whether x, a block after first, belongs to the run that
// starts with first, the block a lead-in introduces.
func inRun(first, x block) bool {
	switch {
	case first.el == schema.ElementParagraph:
		return false // a paragraph is a run of one
	case first.table != 0:
		return x.table == first.table
	case first.list != 0:
		return x.list == first.list
	}
	return x.el == schema.ElementCodeBlock && x.list == 0 && x.group == first.group
}

// leadInSpan is the part of lead-in block b a chunk that lacks it carries:
// the last sentence of its last paragraph, and the ones before it while
// they are short ("For example:" alone says nothing), at most three. The
// last paragraph is what follows the block's last blank line, fence or list
// marker: in a list item with a nested list, the words after the list are
// what introduces the code under it. Offsets are the document's; empty when
// the block ends in code.
func leadInSpan(b block) span {
	from := lastParagraph(b.text)
	ss := sentence.Split(b.text[from:])
	if len(ss) == 0 {
		return span{b.start, b.start}
	}
	first, last := len(ss)-1, ss[len(ss)-1]
	for first > 0 && len(ss)-first < maxLeadSentences && last.End-ss[first].Start < minLeadBytes {
		first--
	}
	return span{b.start + from + ss[first].Start, b.start + from + last.End}
}

// lastParagraph is where the last paragraph of a block's text starts: after
// its last blank (or quote-only) line or fence line, at its last line that
// opens a list item.
func lastParagraph(text string) int {
	end := len(text)
	for end > 0 {
		start := strings.LastIndexByte(text[:end], '\n') + 1
		l := strings.TrimLeft(text[start:end], " \t")
		for strings.HasPrefix(l, ">") {
			l = strings.TrimLeft(l[1:], " \t")
		}
		switch {
		case l == "", strings.HasPrefix(l, "```"), strings.HasPrefix(l, "~~~"):
			return end
		case sentence.MarkerLen(l) > 0:
			return start
		}
		if start == 0 {
			return 0
		}
		end = start - 1
	}
	return 0
}

const (
	maxLeadSentences = 3  // a lead-in is a sentence or two, not a paragraph
	minLeadBytes     = 60 // shorter than this, a lead-in takes the sentence before it too
)

// endsWithColon reports whether text ends in ":", closing emphasis and
// brackets aside ("**Example:**", "(as follows):").
func endsWithColon(text string) bool {
	return strings.HasSuffix(strings.TrimRight(text, " \t\n*_)"), ":")
}
