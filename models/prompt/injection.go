package prompt

import "strings"

// Corpus text is data, never instructions. A document that talks to the
// model ("Ignore previous instructions…", a "SYSTEM:" line) is a prompt
// injection, planted or copied from the web. Three lines of defence:
//
//  1. The prompt fences the document and the chunk between markers named
//     with a code the text cannot contain, and the system prompt says that
//     what is between them is data (see userPrompt).
//  2. Paragraphs that read as instructions to a model, however they are
//     written (instructions.go), are withheld from the prompt (replaced by
//     a note), and a chunk that holds one is not sent at all: it gets the
//     extractive header, without quoting it.
//  3. Every answer is checked for content (validate.go): what it says of
//     places, links and claims must stand in the document outside such
//     paragraphs, and it may not copy their words; its header must be the
//     document's words (grounding.go) and may not reassure where its chunk
//     does not (claims.go): what an injection wants, whether or not the
//     detection saw it.

// InstructionSpans returns the paragraphs of text (blank-line separated)
// that read as instructions to a model (instructionLike), as byte ranges.
func InstructionSpans(text string) [][2]int {
	var out [][2]int
	for start := 0; start < len(text); {
		for start < len(text) && text[start] == '\n' {
			start++
		}
		end := len(text)
		if i := strings.Index(text[start:], "\n\n"); i >= 0 {
			end = start + i
		}
		if start < end && detect(text[start:end]) {
			out = append(out, [2]int{start, end})
		}
		start = end
	}
	return out
}

// withheldNote stands in the prompt where a paragraph was withheld.
const withheldNote = "[a paragraph that reads as instructions to a model is withheld here]"

// withheldAt is text with spans replaced by withheldNote.
func withheldAt(text string, spans [][2]int) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s[0]])
		b.WriteString(withheldNote)
		last = s[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// blank returns text with its instruction-like paragraphs blanked (same
// length, spaces): the trusted text an answer's facts must come from.
func blank(text string) string { return blankedAt(text, InstructionSpans(text)) }

// blankedAt is text with spans blanked.
func blankedAt(text string, spans [][2]int) string {
	if len(spans) == 0 {
		return text
	}
	b := []byte(text)
	for _, s := range spans {
		for i := s[0]; i < s[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// within is spans as ranges of text[from:]: those before it dropped, one
// across it cut.
func within(spans [][2]int, from int) [][2]int {
	var out [][2]int
	for _, s := range spans {
		if s[1] > from {
			out = append(out, [2]int{max(s[0], from) - from, s[1] - from})
		}
	}
	return out
}
