package console

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
		for i := range 5 { // first: they must not take the slots of what needs acting on
			ds = append(ds, schema.Diagnostic{Path: fmt.Sprintf("big%d.md", i), Line: 9, Severity: schema.SeverityInfo, Code: "oversize", Message: "kept whole"})
		}
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
		{"default: the first 20 errors and warnings, then a count per code, errors first", "", "text", 20 + 4, []string{"d19.md:3: warning", "16 more diagnostics not shown", "  1 × missing-source (error)\n  30 × unknown-header (warning)\n  5 × oversize (info)\n"}},
		{"verbose: every one", "verbose", "text", 36, []string{"big0.md:9: info", "d29.md:3: warning", "bad.md:1: error"}},
		{"quiet: errors, then the counts", "quiet", "text", 1 + 4, []string{"bad.md:1: error", "35 more diagnostics not shown"}},
		{"github annotations", "verbose", "github", 36, []string{"::notice file=big0.md,line=9,title=oversize::kept whole [oversize]", "::warning file=d00.md,line=3,title=unknown-header::m [unknown-header]", "::error file=bad.md,line=1,title=missing-source::no, source [missing-source]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := NewDiagnostics(&buf, tt.verbosity, tt.format)
			for _, d := range many() {
				p.Add(d)
			}
			p.Summary()
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
