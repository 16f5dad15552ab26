package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
)

// reporter prints a run's progress: a live line on a terminal, a plain line
// every few seconds otherwise (CI logs), and every problem as it is found.
type reporter struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	quiet  bool
	docs   [2]int
	chunks int
	last   time.Time
	live   bool // a live line is on screen
}

var _ stages.Reporter = (*reporter)(nil)

const plainEvery = 5 * time.Second // often enough to show life in a CI log, rare enough to read

func newReporter(w io.Writer, quiet bool) *reporter {
	return &reporter{w: w, tty: isTerminal(w), quiet: quiet, last: time.Now()}
}

func (r *reporter) Progress(stage string, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch stage {
	case "documents":
		r.docs = [2]int{done, total}
	case "chunks":
		r.chunks = done
	}
	if r.quiet {
		return
	}
	if r.tty {
		fmt.Fprintf(r.w, "\r\033[Kdocuments %d/%d · chunks embedded and written %d", r.docs[0], r.docs[1], r.chunks)
		r.live = true
		return
	}
	if time.Since(r.last) >= plainEvery {
		r.last = time.Now()
		fmt.Fprintf(r.w, "progress: documents %d/%d, chunks %d\n", r.docs[0], r.docs[1], r.chunks)
	}
}

func (r *reporter) Diagnostic(d schema.Diagnostic) {
	if r.quiet && d.Severity == schema.SeverityInfo {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLine()
	fmt.Fprintln(r.w, d.String())
}

// done ends the live line before the summary.
func (r *reporter) done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLine()
}

func (r *reporter) clearLine() {
	if r.live {
		fmt.Fprint(r.w, "\r\033[K")
		r.live = false
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
