package console

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/text/printable"

	"github.com/ocean-safety/ingest/schema"
)

// shownDiagnostics is how many diagnostics stderr shows one by one by
// default: enough to see what is wrong, few enough that a docs site's
// thousand warnings do not bury the summary. The snapshot's diagnostics.jsonl
// has them all.
const shownDiagnostics = 20

// Diagnostics prints a run's diagnostics as they come and a summary at the
// end. Verbosity: "quiet" (errors only), "" (the first shownDiagnostics
// errors and warnings; info, such as an oversize code block kept whole, is
// only counted: nothing to act on should push out what is), "verbose" (all). Format: "text" (path:line: severity: message [code]) or
// "github" (GitHub Actions annotations). Not safe for concurrent use: the
// reporter that owns it locks.
type Diagnostics struct {
	w         io.Writer
	verbosity string
	format    string
	shown     int
	counts    map[string]int // by code and severity
	hidden    int
	ignored   map[string]int // by code and severity: accepted by the config or --ignore
}

// NewDiagnostics prints to w's raw writer (printable.Raw): its lines escape
// their values themselves, and the github format's are workflow commands.
// Format: "text", "github", or "json" (a record a line, for --log-format
// json).
func NewDiagnostics(w io.Writer, verbosity, format string) *Diagnostics {
	return &Diagnostics{w: printable.Raw(w), verbosity: verbosity, format: format, counts: map[string]int{}, ignored: map[string]int{}}
}

// Add prints d, or counts it for the summary; it reports whether anything
// was written.
func (p *Diagnostics) Add(d schema.Diagnostic) bool {
	if d.Ignored {
		p.ignored[d.Code+"\x00"+string(d.Severity)]++
		return false
	}
	p.counts[d.Code+"\x00"+string(d.Severity)]++
	switch {
	case p.verbosity == "quiet" && d.Severity != schema.SeverityError,
		p.verbosity == "" && (p.shown >= shownDiagnostics || d.Severity == schema.SeverityInfo):
		p.hidden++
		return false
	}
	p.shown++
	if p.format == "json" {
		Records(p.w).Log(context.Background(), severityLevel(d.Severity), "diagnostic", "path", printable.Escape(d.Path), "line", d.Line,
			"code", printable.Escape(d.Code), "severity", d.Severity, "message", printable.Escape(d.Message))
		return true
	}
	fmt.Fprintln(p.w, p.line(d))
	return true
}

func severityLevel(s schema.Severity) slog.Level {
	switch s {
	case schema.SeverityError:
		return slog.LevelError
	case schema.SeverityWarning:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

// codeCount is one line of the summary, as a record's field.
type codeCount struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Count    int    `json:"count"`
}

// line is d's line, its path and message escaped (printable.Escape): a
// file name or a value quoted in a message can neither drive the terminal
// nor start a line of its own.
func (p *Diagnostics) line(d schema.Diagnostic) string {
	d.Path, d.Message, d.Code = printable.Escape(d.Path), printable.Escape(d.Message), printable.Escape(d.Code)
	if p.format != "github" {
		return d.String()
	}
	level := map[schema.Severity]string{schema.SeverityError: "error", schema.SeverityWarning: "warning"}[d.Severity]
	if level == "" {
		level = "notice"
	}
	props := "file=" + escapeProperty(d.Path)
	if d.Line > 0 {
		props += ",line=" + strconv.Itoa(d.Line)
	}
	return "::" + level + " " + props + ",title=" + escapeProperty(d.Code) + "::" + escapeData(d.Message+" ["+d.Code+"]")
}

// Summary prints one line per code with its count, errors first, then
// warnings, then info, when some diagnostics were not shown one by one.
func (p *Diagnostics) Summary() {
	if p.format == "json" {
		log := Records(p.w)
		if n := total(p.ignored); n > 0 {
			log.Info("diagnostics ignored", "ignored", n, "by_code", p.sorted(p.ignored))
		}
		if p.hidden > 0 {
			log.Info("diagnostics not shown", "shown", p.shown, "hidden", p.hidden, "by_code", p.sorted(p.counts))
		}
		return
	}
	if n := total(p.ignored); n > 0 {
		fmt.Fprintf(p.w, "%d diagnostics ignored (diagnostics: in the config, --ignore; the snapshot's diagnostics.jsonl has them, marked):\n", n)
		p.byCode(p.ignored)
	}
	if p.hidden == 0 {
		return
	}
	fmt.Fprintf(p.w, "%d more diagnostics not shown (--verbose shows all; the snapshot's diagnostics.jsonl has every one):\n", p.hidden)
	p.byCode(p.counts)
}

// byCode prints one line per code of counts, errors first, then the most
// frequent.
func (p *Diagnostics) byCode(counts map[string]int) {
	for _, c := range p.sorted(counts) {
		fmt.Fprintf(p.w, "  %d × %s (%s)\n", c.Count, printable.Escape(c.Code), c.Severity)
	}
}

// sorted is counts by code, errors first, then the most frequent.
func (p *Diagnostics) sorted(counts map[string]int) []codeCount {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	rank := map[string]int{string(schema.SeverityError): 0, string(schema.SeverityWarning): 1, string(schema.SeverityInfo): 2}
	sort.Slice(keys, func(i, j int) bool {
		_, si, _ := strings.Cut(keys[i], "\x00")
		_, sj, _ := strings.Cut(keys[j], "\x00")
		if rank[si] != rank[sj] {
			return rank[si] < rank[sj]
		}
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make([]codeCount, len(keys))
	for i, k := range keys {
		code, sev, _ := strings.Cut(k, "\x00")
		out[i] = codeCount{code, sev, counts[k]}
	}
	return out
}

func total(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// escapeData and escapeProperty escape a GitHub Actions workflow command's
// message and properties.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
