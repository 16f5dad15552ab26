package printable

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "docs/praia/ondas.md", "docs/praia/ondas.md"},
		{"accents and symbols", "água › 24,5 °C", "água › 24,5 °C"},
		{"newline forging a workflow command", "x\n::error file=SECURITY.md,line=1::pwned.md", `x\n::error file=SECURITY.md,line=1::pwned.md`},
		{"ESC and OSC", "a\x1b]8;;http://evil\x07b\x1b[31m.md", `a\u001b]8;;http://evil\u0007b\u001b[31m.md`},
		{"C1 CSI and DEL", "a\u009b31mb\x7f", `a\u009b31mb\u007f`},
		{"bidi override", "invoice\u202egpj.md", `invoice\u202egpj.md`},
		{"isolate and mark", "a\u2066b\u200fc", `a\u2066b\u200fc`},
		{"not UTF-8", "bad-\xff-name", `bad-\xff-name`},
		{"tab and CR", "a\tb\rc", `a\tb\rc`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if got := HasUnsafe(tt.in); got != (tt.in != tt.want) {
				t.Errorf("HasUnsafe: got %v", got)
			}
		})
	}
}

// TestWriter: what goes through a Writer keeps its lines and tabs, shows
// every other control escaped, and no line of it can start a workflow
// command, whatever white space comes first; JSON stays JSON.
func TestWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain lines", []string{"published out: 4 documents\n", "  by kind: prose 3\n"}, "published out: 4 documents\n  by kind: prose 3\n"},
		{"a value forging a command", []string{"ingest: load x\n::error file=SECURITY.md,line=1::pwned\n"}, "ingest: load x\n\\u003a:error file=SECURITY.md,line=1::pwned\n"},
		{"command after spaces", []string{"    \t ::warning::x\n"}, "    \t \\u003a:warning::x\n"},
		{"command after Unicode spaces", []string{"\u00a0\u3000::notice::x\n"}, "\u00a0\u3000\\u003a:notice::x\n"},
		{"command after C1 NEL", []string{"\u0085::error::x\n"}, "\\u0085\\u003a:error::x\n"},
		{"command after a space cut by the write", []string{"\u2005"[:1], "\u2005"[1:] + "::error::x\n"}, "\u2005\\u003a:error::x\n"},
		{"old form", []string{"##[error]x\n"}, "\\u0023#[error]x\n"},
		{"mid-line colons kept", []string{"a ::b\n"}, "a ::b\n"},
		{"line begun in one write, command in the next", []string{"ok\n", "  ", "::error::x\n"}, "ok\n  \\u003a:error::x\n"},
		{"ESC", []string{"\x1b[2J\x1b]0;title\x07\n"}, "\\u001b[2J\\u001b]0;title\\u0007\n"},
		{"a character cut between writes", []string{"\xe2\x80", "\xaeabc\n"}, "\\u202eabc\n"},
		{"CR", []string{"done\rfake\n"}, "done\\u000dfake\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			w := NewWriter(&b)
			for _, s := range tt.writes {
				if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
					t.Fatalf("Write: %d, %v", n, err)
				}
			}
			if got := b.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	var b bytes.Buffer
	doc, _ := json.Marshal(map[string]string{"path": "a\u202e\u0085\x7fb"})
	NewWriter(&b).Write(append(doc, '\n'))
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["path"] != "a\u202e\u0085\x7fb" {
		t.Errorf("JSON through the writer: got %s (%v), want the same document", b.String(), err)
	}
	if strings.ContainsRune(b.String(), '\u202e') {
		t.Errorf("got a raw bidi override in %q", b.String())
	}
}

// FuzzWriter: whatever is written, in whatever pieces, nothing unsafe comes
// out and no line can start a workflow command.
func FuzzWriter(f *testing.F) {
	for _, s := range []string{"a\n::error::x", "\x1b[2J", "\u202e\u0085::x", "\xe2\x80\xae", "  ##[group]x\n", "ok"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		var b bytes.Buffer
		w := NewWriter(&b)
		if cut < 0 || cut > len(s) {
			cut = len(s) / 2
		}
		w.Write([]byte(s[:cut]))
		w.Write([]byte(s[cut:]))
		w.Write([]byte("\n")) // ends a character cut short
		out := b.String()
		for _, r := range out {
			if Unsafe(r) && r != '\n' && r != '\t' {
				t.Fatalf("got %U in %q from %q", r, out, s)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			trim := strings.TrimLeftFunc(line, func(r rune) bool {
				return r == ' ' || r == '\t' || unicode.IsSpace(r) || r == '\ufeff' || r == '\u200b'
			})
			if strings.HasPrefix(trim, "::") || strings.HasPrefix(trim, "##[") {
				t.Fatalf("got a workflow command line %q from %q", line, s)
			}
		}
	})
}
