package console

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/cupwriter"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/text/printable"
)

// Reporter shows a run's progress and its diagnostics and log lines:
//   - on a terminal, bars per stage with counts, rate and ETA (mpb, which
//     redraws at its own pace and prints other lines above the bars);
//   - in a CI log, a plain TERM=dumb terminal or a pipe, a plain line every
//     few seconds;
//   - with --quiet, no progress at all.
//
// The run calls it from several goroutines; it locks.
type Reporter struct {
	mu       sync.Mutex
	w        io.Writer
	mode     string // "bars", "plain" or "quiet"
	enrich   bool   // a model writes headers: show the enrich stage
	start    time.Time
	last     time.Time // of the last plain line
	parsed   [2]int
	enriched [2]int
	written  int
	diags    *Diagnostics

	bars                *mpb.Progress
	parseBar, enrichBar *mpb.Bar
	writeBar            *mpb.Bar
}

var _ stages.Reporter = (*Reporter)(nil)

const (
	plainEvery = 5 * time.Second        // often enough to show life in a CI log, rare enough to read
	barRefresh = 200 * time.Millisecond // mpb's redraw: smooth to the eye, cheap on a slow terminal
)

// ProgressMode decides how progress is shown on w; term is $TERM, which the
// command reads.
func ProgressMode(w io.Writer, quiet bool, term string) string {
	switch {
	case quiet:
		return "quiet"
	case IsTerminal(w) && term != "dumb":
		return "bars"
	}
	return "plain"
}

// NewReporter shows progress on w in mode ("bars", "plain", "json" or
// "quiet", see ProgressMode), with the enrich stage when a model writes
// headers, and prints diagnostics through diags (text on w when nil).
func NewReporter(w io.Writer, mode string, enrich bool, diags *Diagnostics) *Reporter {
	if diags == nil {
		diags = NewDiagnostics(w, "", "text")
	}
	r := &Reporter{w: w, mode: mode, enrich: enrich, start: time.Now(), last: time.Now(), diags: diags}
	if mode == "bars" {
		r.bars = mpb.New(mpb.WithConsoleWriter(barWriter(w)), mpb.WithWidth(32), mpb.WithRefreshRate(barRefresh))
		r.parseBar = r.bar("parse+chunk", "docs", 0)
		if enrich {
			r.enrichBar = r.bar("enrich", "docs", 0)
		}
		r.writeBar = r.bars.New(0, mpb.SpinnerStyle(),
			mpb.PrependDecorators(decor.Name("embed+write", decor.WC{C: decor.DindentRight | decor.DextraSpace})),
			mpb.AppendDecorators(decor.CurrentNoUnit("%d chunks"), decor.Name(" "), decor.AverageSpeed(nil, "%.0f/s")))
		r.diags.w = r.bars // diagnostics print above the bars
	}
	return r
}

func (r *Reporter) bar(name, unit string, total int64) *mpb.Bar {
	return r.bars.AddBar(total,
		mpb.PrependDecorators(decor.Name(name, decor.WC{C: decor.DindentRight | decor.DextraSpace}), decor.CountersNoUnit("%d/%d "+unit)),
		mpb.AppendDecorators(decor.AverageSpeed(nil, "%.0f/s"), decor.Name(" · ETA "), decor.AverageETA(decor.ET_STYLE_GO)))
}

func (r *Reporter) Progress(stage string, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch stage {
	case stages.StageParsed:
		r.parsed = [2]int{done, total}
		r.set(r.parseBar, done, total)
	case stages.StageEnriched:
		r.enriched = [2]int{done, total}
		r.set(r.enrichBar, done, total)
	case stages.StageWritten:
		r.written = done
		if r.writeBar != nil {
			r.writeBar.SetCurrent(int64(done))
		}
	}
	if (r.mode == "plain" || r.mode == "json") && time.Since(r.last) >= plainEvery {
		r.last = time.Now()
		if r.mode == "json" {
			Records(r.w).Info("progress", "parsed", r.parsed[0], "documents", r.parsed[1], "enriched", r.enriched[0], "written", r.written,
				"seconds", time.Since(r.start).Seconds())
		} else {
			fmt.Fprintf(r.w, "progress: %s\n", r.line())
		}
	}
}

func (r *Reporter) set(b *mpb.Bar, done, total int) {
	if b == nil {
		return
	}
	if total > 0 {
		b.SetTotal(int64(total), false)
	}
	b.SetCurrent(int64(done))
}

// line is the progress of every stage on one line, with rates and an ETA.
func (r *Reporter) line() string {
	secs := time.Since(r.start).Seconds()
	rate := func(n int) float64 {
		if secs <= 0 {
			return 0
		}
		return float64(n) / secs
	}
	s := fmt.Sprintf("parse+chunk %d/%d docs (%.0f/s", r.parsed[0], r.parsed[1], rate(r.parsed[0]))
	if left := r.parsed[1] - r.parsed[0]; left > 0 && r.parsed[0] > 0 {
		s += fmt.Sprintf(", ETA %s", (time.Duration(float64(left)/rate(r.parsed[0])) * time.Second).Round(time.Second))
	}
	s += ")"
	if r.enrich {
		s += fmt.Sprintf(" · enrich %d/%d docs", r.enriched[0], r.enriched[1])
	}
	return s + fmt.Sprintf(" · embed+write %d chunks (%.0f/s)", r.written, rate(r.written))
}

func (r *Reporter) Diagnostic(d schema.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.diags.Add(d)
}

// Write prints a log line: above the bars on a terminal.
func (r *Reporter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bars != nil {
		return r.bars.Write(p)
	}
	return r.w.Write(p)
}

// Done ends the progress display, then prints the diagnostics' summary,
// before the run's summary.
func (r *Reporter) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bars != nil {
		for _, b := range []*mpb.Bar{r.parseBar, r.enrichBar, r.writeBar} {
			if b != nil {
				b.SetTotal(-1, true) // complete at its current count
			}
		}
		r.bars.Wait()
		r.bars = nil
		r.diags.w = r.w
	}
	r.diags.Summary()
}

// barWriter is what the bars draw on: w under its printable layer only
// (the bars escape their values and write their own cursor sequences), so
// still through the secrets' masker, with the terminal under all of it
// named for its size. mpb decides whether to redraw by looking at its
// output: handed the masker, it saw no terminal, never redrew and drew
// once at the end, without cursor movement. The bars print stage names and
// counts, no corpus text; keeping them masked costs nothing, since the
// masker writes each frame whole, as mpb writes it.
func barWriter(w io.Writer) mpb.ConsoleWriter {
	cw := cupwriter.New(printable.Raw(w), false)
	if f, ok := terminal(w); ok {
		cw.SetTermFd(int(f.Fd()))
	}
	return cw
}

// IsTerminal reports whether w, unwrapped, is a terminal.
func IsTerminal(w io.Writer) bool {
	_, ok := terminal(w)
	return ok
}

// terminal returns the terminal under w's wrappers, if it is one.
func terminal(w io.Writer) (*os.File, bool) {
	for {
		u, ok := w.(interface{ Unwrap() io.Writer })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil, false
	}
	st, err := f.Stat()
	return f, err == nil && st.Mode()&os.ModeCharDevice != 0
}
