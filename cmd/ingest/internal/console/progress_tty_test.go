package console

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/text/printable"
)

// screen is what a pseudo-terminal's far end has received, read as it
// comes.
type screen struct {
	t    *testing.T
	got  bytes.Buffer
	more chan []byte
}

// openTerminal opens a pseudo-terminal, 100 columns wide: its terminal
// end to write to, and the screen that reads what reaches it.
func openTerminal(t *testing.T) (*os.File, *screen) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	s := &screen{t: t, more: make(chan []byte, 64)}
	go func() {
		defer close(s.more)
		for {
			b := make([]byte, 4096)
			n, err := ptmx.Read(b)
			if n > 0 {
				s.more <- b[:n]
			}
			if err != nil { // EIO once the terminal end is closed
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	return tty, s
}

// waitFor reads until want has arrived since mark, an offset in what was
// read; it returns the offset after it. The deadline only bounds a failure.
func (s *screen) waitFor(mark int, want string) int {
	s.t.Helper()
	deadline := time.After(time.Minute)
	for {
		if i := strings.Index(s.got.String()[mark:], want); i >= 0 {
			return mark + i + len(want)
		}
		select {
		case b, ok := <-s.more:
			if !ok {
				s.t.Fatalf("the terminal closed; got %q, want %q", s.got.String()[mark:], want)
			}
			s.got.Write(b)
		case <-deadline:
			s.t.Fatalf("got %q after a minute, want %q", s.got.String()[mark:], want)
		}
	}
}

// TestBarsOnATerminal: stderr is a terminal under the command's wrappers
// (the masker, the printable layer), and the bars are drawn on it while
// the run goes, redrawn in place (cursor up, erase), each stage with its
// count, rate and ETA; a log line prints above them, its secret masked.
func TestBarsOnATerminal(t *testing.T) {
	tty, s := openTerminal(t)
	const secret = "tok-0123456789abcdef"
	w := printable.NewWriter(redact.NewMasker(tty, redact.NewSet(secret)))
	if mode := ProgressMode(w, false, "xterm-256color"); mode != "bars" {
		t.Fatalf("a terminal under the masker: got mode %s, want bars", mode)
	}
	r := NewReporter(w, "bars", true, nil)
	r.Progress(stages.StageParsed, 1, 4)
	mark := s.waitFor(0, "parse+chunk 1/4 docs")
	r.Progress(stages.StageParsed, 3, 4)
	r.Progress(stages.StageEnriched, 2, 4)
	r.Progress(stages.StageWritten, 17, -1)
	mark = s.waitFor(mark, "\x1b[J") // the earlier frame erased…
	for _, want := range []string{"parse+chunk 3/4 docs", "/s", "ETA", "enrich 2/4 docs", "embed+write", "17 chunks"} {
		s.waitFor(mark, want) // …and redrawn with the new counts
	}
	fmt.Fprintf(r, "note: token %s\n", secret)
	mark = s.waitFor(mark, "note: token "+redact.Mask)
	r.Done()
	tty.Close()
	for range s.more {
	}
	if strings.Contains(s.got.String(), secret) {
		t.Errorf("got the secret on the terminal: %q", s.got.String())
	}
	if !strings.Contains(s.got.String()[mark:], "parse+chunk 3/4 docs") {
		t.Errorf("got %q after the log line, want the bars redrawn below it", s.got.String()[mark:])
	}
}

// TestNoEscapesOffATerminal: a pipe, TERM=dumb, and JSON logs get no
// escape sequence, whatever the run reports.
func TestNoEscapesOffATerminal(t *testing.T) {
	tty, _ := openTerminal(t)
	tests := []struct {
		name string
		w    io.Writer
		term string
		json bool
		want string // the mode
	}{
		{"a pipe", &bytes.Buffer{}, "xterm", false, "plain"},
		{"a terminal with TERM=dumb", tty, "dumb", false, "plain"},
		{"a terminal with --log-format json", tty, "xterm", true, "json"},
		{"--quiet on a terminal", tty, "xterm", false, "quiet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mode := ProgressMode(tt.w, tt.want == "quiet", tt.term)
			if tt.json && mode != "quiet" {
				mode = "json" // as index decides for --log-format json
			}
			if mode != tt.want {
				t.Fatalf("got mode %s, want %s", mode, tt.want)
			}
			var buf bytes.Buffer
			r := NewReporter(&buf, mode, true, nil)
			r.last = time.Now().Add(-time.Hour) // the next update prints its line
			r.Progress(stages.StageParsed, 2, 3)
			r.Done()
			if strings.Contains(buf.String(), "\x1b") {
				t.Errorf("got %q, want no escape sequence", buf.String())
			}
			if mode != "quiet" && !strings.Contains(buf.String(), "2") {
				t.Errorf("got %q, want the progress in plain text", buf.String())
			}
		})
	}
}
