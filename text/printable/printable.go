package printable

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// IsControl reports a control character: C0 (tab and line breaks
// included), DEL and C1, which a terminal or a log viewer obeys.
func IsControl(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }

// IsBidi reports a bidirectional formatting character (embeddings,
// overrides, isolates and marks), which reorders what a reader sees.
func IsBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// IsSeparator reports the line and paragraph separators (U+2028, U+2029,
// Unicode's Zl and Zp): no terminal breaks the line at them, but a log
// viewer, a browser's JavaScript and an editor do, so a name or a value
// that holds one reads as two lines in one place and one in another.
func IsSeparator(r rune) bool { return r == 0x2028 || r == 0x2029 }

// Unsafe reports a character that must not reach a terminal or a log as
// it is: a control, a line or paragraph separator, or a bidirectional
// formatting character.
func Unsafe(r rune) bool { return IsControl(r) || IsSeparator(r) || IsBidi(r) }

// HasUnsafe reports whether s holds an unsafe character or is not valid
// UTF-8.
func HasUnsafe(s string) bool {
	for i, r := range s {
		if Unsafe(r) || r == utf8.RuneError && isInvalid(s[i:]) {
			return true
		}
	}
	return false
}

func isInvalid(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return r == utf8.RuneError && n <= 1
}

// Escape returns s with every unsafe character written as an escape: \n,
// \r and \t, \u00XX for other controls, \uXXXX for bidirectional ones, and
// \xXX for a byte that is not UTF-8. A value so escaped is one line. s is
// returned as it is when it holds nothing to escape.
func Escape(s string) string {
	if !HasUnsafe(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && isInvalid(s[i:]):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case Unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
