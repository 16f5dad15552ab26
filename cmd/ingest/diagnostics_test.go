package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestDiagnosticsPrinter(t *testing.T) {
	many := func() []schema.Diagnostic {
		var ds []schema.Diagnostic
		for i := range 30 {
			ds = append(ds, schema.Diagnostic{Path: fmt.Sprintf("d%02d.md", i), Line: 3, Severity: schema.SeverityWarning, Code: "unknown-header", Message: "m"})
		}
		return append(ds, schema.Diagnostic{Path: "bad.md", Line: 1, Severity: schema.SeverityError, Code: "missing-source", Message: "no, source"})
	}
	tests := []struct {
		name, verbosity, format string
		wantLines               int      // lines printed in all
		want                    []string // in the output
	}{
		{"default: the first 20, then a count per code", "", "text", 20 + 3, []string{"d19.md:3: warning", "11 more diagnostics not shown", "  30 × unknown-header (warning)", "  1 × missing-source (error)"}},
		{"verbose: every one", "verbose", "text", 31, []string{"d29.md:3: warning", "bad.md:1: error"}},
		{"quiet: errors, then the counts", "quiet", "text", 1 + 3, []string{"bad.md:1: error", "30 more diagnostics not shown"}},
		{"github annotations", "verbose", "github", 31, []string{"::warning file=d00.md,line=3,title=unknown-header::m [unknown-header]", "::error file=bad.md,line=1,title=missing-source::no, source [missing-source]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := newDiagnostics(&buf, tt.verbosity, tt.format)
			for _, d := range many() {
				p.add(d)
			}
			p.summary()
			out := buf.String()
			if n := strings.Count(out, "\n"); n != tt.wantLines {
				t.Errorf("got %d lines, want %d:\n%s", n, tt.wantLines, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("got\n%s\nwant it to contain %q", out, w)
				}
			}
		})
	}
}
