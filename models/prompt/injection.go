package prompt

import (
	"regexp"
	"strings"
)

// Corpus text is data, never instructions. A document that talks to the
// model ("Ignore previous instructions…", a "SYSTEM:" line) is a prompt
// injection, planted or copied from the web. Three lines of defence:
//
//  1. The prompt fences the document and the chunk between markers named
//     with a code the text cannot contain, and the system prompt says that
//     what is between them is data (see userPrompt).
//  2. Paragraphs that read as instructions to a model are withheld from the
//     prompt (replaced by a note), and a chunk that is one is not sent at
//     all: it gets the extractive header, without quoting it.
//  3. Every answer is checked for content (validate.go): what it says of
//     places, links and claims must stand in the document outside such
//     paragraphs, and it may not copy their words.

// instructionPatterns recognise text addressed to a model, in English and
// Portuguese: the common shapes of prompt injection, not every phrasing.
var instructionPatterns = regexp.MustCompile(`(?im)` +
	`\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|any|your)\b.{0,30}\b(instructions?|prompts?|rules|directions)\b` +
	`|\b(ignor[ea]r?|desconsider[ea]r?|esque[çc][ao]|esquecer)\b.{0,40}\b(instru[çc](ão|ões)|regras|orienta[çc](ão|ões))\b` +
	`|^ {0,3}[#>*_\- ]*(system|assistant|developer|sistema|assistente)[ \t]*:[ \t]*\S` +
	`|\byou are now (a|an)\b.{0,30}\b(assistant|model|ai|bot|agent)\b|\bvoc[êe] agora [ée] (um|uma)\b.{0,30}\b(assistente|modelo|ia|bot|agente)\b` +
	`|\bnew instructions?\s*:|\bnovas? instru[çc](ão|ões)\s*:` +
	`|\b(answer|respond|reply|output)\s+(only\s+)?with\s*:|\b(responda|retorne)\s+(apenas\s+)?com\s*:` +
	`|</?\s*(chunk|document|system|instructions?)(\s[^>]*)?>`)

// InstructionSpans returns the paragraphs of text (blank-line separated)
// that read as instructions to a model, as byte ranges.
func InstructionSpans(text string) [][2]int {
	locs := instructionPatterns.FindAllStringIndex(text, -1)
	var out [][2]int
	for _, l := range locs {
		start := strings.LastIndex(text[:l[0]], "\n\n") + 1
		if start > 0 {
			start++ // after the blank line
		}
		end := len(text)
		if i := strings.Index(text[l[1]:], "\n\n"); i >= 0 {
			end = l[1] + i
		}
		if n := len(out); n > 0 && start <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], end)
			continue
		}
		out = append(out, [2]int{start, end})
	}
	return out
}

// withheldNote stands in the prompt where a paragraph was withheld.
const withheldNote = "[a paragraph that reads as instructions to a model is withheld here]"

// withhold returns text with its instruction-like paragraphs replaced by
// withheldNote, and whether any was.
func withhold(text string) (string, bool) {
	spans := InstructionSpans(text)
	if len(spans) == 0 {
		return text, false
	}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s[0]])
		b.WriteString(withheldNote)
		last = s[1]
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// blank returns text with its instruction-like paragraphs blanked (same
// length, spaces): the trusted text an answer's facts must come from.
func blank(text string) string {
	spans := InstructionSpans(text)
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

// injected returns the instruction-like paragraphs of text.
func injected(text string) []string {
	var out []string
	for _, s := range InstructionSpans(text) {
		out = append(out, text[s[0]:s[1]])
	}
	return out
}
