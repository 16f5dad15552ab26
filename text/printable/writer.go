package printable

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Writer passes what is written through it with its unsafe characters
// escaped, line breaks and tabs kept, and neutralises a line that would
// start a GitHub Actions workflow command: the runner reads a line whose
// first characters after any white space are "::" (or the older "##["),
// so that first character is written as \u003a (or \u0023). Escapes are in
// the \uXXXX form, which is also valid inside a JSON string, so the JSON a
// command prints stays JSON; bytes that are not UTF-8 are written \xXX
// (encoding/json never writes any).
//
// The tool's own workflow commands (--diagnostics-format github) and the
// terminal's progress bars are written to Raw(w), after escaping their
// values themselves.
type Writer struct {
	w         io.Writer
	lineStart bool   // the next byte begins a line
	pending   []byte // the start of a character cut by the end of a write
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, lineStart: true} }

// Unwrap returns the writer underneath, for a terminal check.
func (e *Writer) Unwrap() io.Writer { return e.w }

// Raw returns the writer under w's Writer layer, or w when it has none:
// where what is written is already escaped and must stay as it is.
func Raw(w io.Writer) io.Writer {
	if e, ok := w.(*Writer); ok {
		return e.w
	}
	return w
}

func (e *Writer) Write(p []byte) (int, error) {
	in := p
	if len(e.pending) > 0 {
		in = append(e.pending, p...)
		e.pending = nil
	}
	var out bytes.Buffer
	for i := 0; i < len(in); {
		if e.lineStart {
			i = e.lineHead(&out, in, i)
			if i >= len(in) {
				break
			}
		}
		r, n := utf8.DecodeRune(in[i:])
		switch {
		case r == utf8.RuneError && n <= 1 && !utf8.FullRune(in[i:]):
			e.pending = append([]byte(nil), in[i:]...) // completed by the next write
			i = len(in)
			continue
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&out, `\x%02x`, in[i])
		case r == '\n':
			out.WriteByte('\n')
			e.lineStart = true
		case r == '\t':
			out.WriteByte('\t')
		case Unsafe(r):
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			out.Write(in[i : i+n])
		}
		i += n
	}
	if _, err := e.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// lineHead copies a line's leading white space and neutralises a workflow
// command after it; it returns where the rest of the line starts.
func (e *Writer) lineHead(out *bytes.Buffer, in []byte, i int) int {
	for i < len(in) {
		if !utf8.FullRune(in[i:]) {
			// A character cut by the end of the write: the next write
			// completes it, and it may be white space before a command.
			e.pending = append([]byte(nil), in[i:]...)
			return len(in)
		}
		r, n := utf8.DecodeRune(in[i:])
		if r == '\n' || !(unicode.IsSpace(r) || r == '\ufeff' || r == '\u200b') {
			break
		}
		if Unsafe(r) && r != '\t' {
			fmt.Fprintf(out, `\u%04x`, r)
		} else {
			out.Write(in[i : i+n])
		}
		i += n
	}
	if i >= len(in) {
		return i // the line may go on in the next write
	}
	e.lineStart = false
	rest := in[i:]
	switch {
	case bytes.HasPrefix(rest, []byte("::")), isStart(rest, "::"):
		out.WriteString(`\u003a`) // a line cut after its ":" could go on with another
		return i + 1
	case bytes.HasPrefix(rest, []byte("##[")), isStart(rest, "##["):
		out.WriteString(`\u0023`)
		return i + 1
	}
	return i
}

// isStart reports whether rest, the end of a write, is the start of
// command: the next write could complete it.
func isStart(rest []byte, command string) bool {
	return len(rest) < len(command) && strings.HasPrefix(command, string(rest))
}
