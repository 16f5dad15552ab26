package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
)

func TestReporter(t *testing.T) {
	tests := []struct {
		name  string
		tty   bool
		quiet bool
		want  []string // in the output
		not   []string // not in it
	}{
		{"terminal: a live line per stage", true, false, []string{"\r\033[Kparse+chunk 2/3 · enrich 1/3 · embed+write 10 chunks", "a.md:4: warning: w [c]"}, nil},
		{"CI log: plain lines", false, false, []string{"progress: parse+chunk", "a.md:4: warning: w [c]"}, []string{"\r", "\033"}},
		{"quiet: errors only, then a count per code", true, true, []string{"2 more diagnostics not shown", "1 × c (warning)", "1 × info-code (info)"}, []string{"parse+chunk", "a.md:4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			verbosity := ""
			if tt.quiet {
				verbosity = "quiet"
			}
			r := &reporter{w: &buf, tty: tt.tty, quiet: tt.quiet, last: time.Now().Add(-time.Hour), diags: newDiagnostics(&buf, verbosity, "text")}
			r.Progress(stages.StageParsed, 2, 3)
			r.Progress(stages.StageEnriched, 1, 3)
			r.Progress(stages.StageWritten, 10, -1)
			r.Diagnostic(schema.Diagnostic{Path: "a.md", Line: 4, Severity: schema.SeverityWarning, Code: "c", Message: "w"})
			r.Diagnostic(schema.Diagnostic{Path: "a.md", Line: 5, Severity: schema.SeverityInfo, Code: "info-code", Message: "i"})
			r.done()
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("got %q, want it to contain %q", out, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("got %q, want no %q", out, n)
				}
			}
		})
	}
}
