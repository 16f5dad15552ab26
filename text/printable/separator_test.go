package printable

import (
	"bytes"
	"testing"
)

// TestSeparatorsEscaped: U+2028 and U+2029 are unsafe, escaped in a value
// and in what a Writer passes on; U+0085 (NEL) is, as a C1 control.
func TestSeparatorsEscaped(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a\u2028b", `a\u2028b`},
		{"a\u2029b", `a\u2029b`},
		{"a\u0085b", `a\u0085b`},
	} {
		if !HasUnsafe(tt.in) {
			t.Errorf("HasUnsafe(%q): got false", tt.in)
		}
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q): got %q, want %q", tt.in, got, tt.want)
		}
		var b bytes.Buffer
		NewWriter(&b).Write([]byte(tt.in + "\n"))
		if got := b.String(); got != tt.want+"\n" {
			t.Errorf("Writer(%q): got %q, want %q", tt.in, got, tt.want+"\n")
		}
	}
}
