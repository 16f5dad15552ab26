package lexical

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
	_ Counter = Chars{}
	_ Counter = ApproxTokens{}
)

// Chars counts characters (runes, so "água" is 4).
type Chars struct{}

// Name implements Counter.
func (Chars) Name() string { return "chars" }

// Count implements Counter.
func (Chars) Count(s string) int { return utf8.RuneCountInString(s) }

// ApproxTokens estimates subword tokens without a vocabulary: one token per
// four characters of a word (at least one), one per punctuation mark. It is
// within about 15% of BPE/WordPiece tokenizers on English and Portuguese
// prose, which is what a budget needs; the manifest records its name so a
// real tokenizer can replace it visibly.
type ApproxTokens struct{}

// Name implements Counter.
func (ApproxTokens) Name() string { return "approx-v1" }

// Count implements Counter.
func (ApproxTokens) Count(s string) int {
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

// NewCounter returns the counter for a chunk.unit setting: "tokens" or "chars".
func NewCounter(unit string) Counter {
	if unit == "tokens" {
		return ApproxTokens{}
	}
	return Chars{}
}
