package console

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
		name   string
		mode   string
		enrich bool
		want   []string // in the output
		not    []string // not in it
	}{
		{"CI log: plain lines with rate and ETA", "plain", false, []string{"progress: parse+chunk 2/3 docs (", "ETA", "embed+write 10 chunks", "a.md:4: warning: w [c]"}, []string{"\r", "\033", "enrich"}},
		{"a model writes headers: the enrich stage shows", "plain", true, []string{"enrich 1/3 docs"}, nil},
		{"quiet: no progress", "quiet", false, []string{"a.md:4: warning: w [c]"}, []string{"progress", "parse+chunk"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			r := NewReporter(&buf, tt.mode, tt.enrich, NewDiagnostics(&buf, "", "text"))
			r.start, r.last = time.Now().Add(-time.Minute), time.Now()
			r.Progress(stages.StageParsed, 2, 3)
			r.Progress(stages.StageEnriched, 1, 3)
			r.last = time.Now().Add(-time.Hour) // the next update prints its line
			r.Progress(stages.StageWritten, 10, -1)
			r.Diagnostic(schema.Diagnostic{Path: "a.md", Line: 4, Severity: schema.SeverityWarning, Code: "c", Message: "w"})
			r.Done()
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
	// Throttled: a CI log gets a line every few seconds, not one per document.
	var buf bytes.Buffer
	r := NewReporter(&buf, "plain", false, nil)
	for i := range 1000 {
		r.Progress(stages.StageParsed, i, 1000)
	}
	if n := strings.Count(buf.String(), "progress:"); n > 1 {
		t.Errorf("got %d progress lines for 1000 updates within a second, want at most 1", n)
	}
}
