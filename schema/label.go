package schema

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// CheckLabel reports what makes s unfit for a label a consumer scopes and
// filters by (a chunk's source_label): a label is written on every row,
// keys a destination's rows and is printed by every command that names
// them, so it must be one line that reads as what it is. It takes letters,
// marks, digits, punctuation, symbols and the space U+0020 between them;
// it refuses invalid UTF-8, control characters (a newline forged an output
// line, a NUL failed the sync with SQLSTATE 22021), line and paragraph
// separators, format characters that show nothing (U+200B, U+FEFF, the
// bidirectional controls), other spaces (U+00A0 looks like U+0020) and a
// space at either end: "src1 ", "src1\u200b" and "src1" are otherwise three
// scopes that look like one. Whether the label is in one normal form is
// its setter's check (corpus.CheckSourceLabel), which knows Unicode's
// tables.
func CheckLabel(s string) error {
	if s == "" {
		return fmt.Errorf("empty")
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%q is not valid UTF-8", s)
	}
	for _, r := range s {
		switch {
		case r == ' ':
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			return fmt.Errorf("%q holds %U, a space other than U+0020", s, r)
		case !unicode.IsGraphic(r):
			return fmt.Errorf("%q holds %U, a control, separator or invisible character", s, r)
		}
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return fmt.Errorf("%q starts or ends with a space", s)
	}
	return nil
}
