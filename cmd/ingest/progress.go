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
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	parsed   [2]int
	enriched [2]int
	written  int
	last     time.Time
	live     bool // a live line is on screen
	diags    *diagnostics
}

var _ stages.Reporter = (*reporter)(nil)

const plainEvery = 5 * time.Second // often enough to show life in a CI log, rare enough to read

func newReporter(w io.Writer, quiet bool, diags *diagnostics) *reporter {
	if diags == nil {
		diags = newDiagnostics(w, "", "text")
	}
	return &reporter{w: w, tty: isTerminal(w), quiet: quiet, last: time.Now(), diags: diags}
}

func (r *reporter) Progress(stage string, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch stage {
	case stages.StageParsed:
		r.parsed = [2]int{done, total}
	case stages.StageEnriched:
		r.enriched = [2]int{done, total}
	case stages.StageWritten:
		r.written = done
	}
	if r.quiet {
		return
	}
	if r.tty {
		fmt.Fprintf(r.w, "\r\033[K%s", r.line())
		r.live = true
		return
	}
	if time.Since(r.last) >= plainEvery {
		r.last = time.Now()
		fmt.Fprintf(r.w, "progress: %s\n", r.line())
	}
}

// line is the progress of every stage on one line.
func (r *reporter) line() string {
	return fmt.Sprintf("parse+chunk %d/%d · enrich %d/%d · embed+write %d chunks",
		r.parsed[0], r.parsed[1], r.enriched[0], r.enriched[1], r.written)
}

func (r *reporter) Diagnostic(d schema.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLine()
	r.diags.add(d)
}

// done ends the live line, and prints the diagnostics' summary, before the
// run's summary.
func (r *reporter) done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.clearLine()
	r.diags.summary()
}

func (r *reporter) clearLine() {
	if r.live {
		fmt.Fprint(r.w, "\r\033[K")
		r.live = false
	}
}

func isTerminal(w io.Writer) bool {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
