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
	_ Counter = QuarterTokens{}
)

// QuarterTokens estimates a model's tokens as one per four characters, the
// usual measure of BPE tokenizers on English text: what a plan counts
// prompts with. On the prompts of the shipped corpus and otel-pt it is 0.94
// of cl100k_base's count (ApproxTokens, 1.21 and 1.28: it counts every
// punctuation mark, and markup is full of them). It is not the chunk
// budget's unit.
type QuarterTokens struct{}

// Name implements Counter.
func (QuarterTokens) Name() string { return "chars/4" }

// Count implements Counter.
func (QuarterTokens) Count(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

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

// Count implements Counter. ASCII bytes are classed by a table; other
// runes by the unicode package (FuzzFold holds the two to refApproxTokens).
func (ApproxTokens) Count(s string) int {
	n, word := 0, 0
	for i := 0; i < len(s); {
		class := asciiClass[s[i]]
		size := 1
		if s[i] >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				class = classWord
			case unicode.IsSpace(r):
				class = classSpace
			default:
				class = classMark
			}
		}
		i += size
		switch class {
		case classWord:
			word++
			continue
		case classMark:
			n++
		}
		n += (word + 3) / 4 // a word ends: one token per four characters, at least one
		word = 0
	}
	return n + (word+3)/4
}

// The classes ApproxTokens.Count sorts runes into.
const (
	classMark  = iota // punctuation, symbols, controls: a token each
	classWord         // letters and digits
	classSpace        // ends a word
)

// asciiClass is the class of each ASCII byte as the unicode package sees it
// (bytes from 0x80 are decoded as runes instead).
var asciiClass = func() (t [256]uint8) {
	for c := range utf8.RuneSelf {
		switch r := rune(c); {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			t[c] = classWord
		case unicode.IsSpace(r):
			t[c] = classSpace
		}
	}
	return t
}()

// NewCounter returns the counter for a chunk.unit setting: "tokens" or "chars".
func NewCounter(unit string) Counter {
	if unit == "tokens" {
		return ApproxTokens{}
	}
	return Chars{}
}
