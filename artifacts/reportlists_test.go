package artifacts

import (
	"fmt"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestReportBound: a report's lists keep the first MaxListedPerCode of each
// code (or reason), the run's own diagnostics marked, and count the rest
// exactly; a republished report carries the documents' share, listed and
// counted, and takes a new run's own in place of the old.
func TestReportBound(t *testing.T) {
	var ds []schema.Diagnostic
	ds = append(ds, schema.Diagnostic{Path: "lost+found", Severity: schema.SeverityError, Code: "unreadable"})
	for i := range MaxListedPerCode + 5 {
		ds = append(ds, schema.Diagnostic{Path: fmt.Sprintf("d%05d.md", i), Severity: schema.SeverityError, Code: "missing-title", Ignored: false},
			schema.Diagnostic{Path: fmt.Sprintf("d%05d.md", i), Severity: schema.SeverityInfo, Code: "oversize", Ignored: i%2 == 0})
	}
	var sk []schema.Skipped
	for i := range MaxListedPerCode + 2 {
		sk = append(sk, schema.Skipped{Path: fmt.Sprintf("img%05d.png", i), Reason: "not-markdown"})
	}
	r := Report{Diagnostics: ds, Skipped: sk}
	r.Bound(1)
	if got, want := len(r.Diagnostics), 1+2*MaxListedPerCode; got != want {
		t.Errorf("got %d diagnostics listed, want %d", got, want)
	}
	if r.SetupDiagnostics != 1 || r.Diagnostics[0].Code != "unreadable" {
		t.Errorf("got %d setup diagnostics first (%v), want the one", r.SetupDiagnostics, r.Diagnostics[0])
	}
	if got := r.DiagnosticCounts(); got["error"] != 1+MaxListedPerCode+5 || got["info"] != MaxListedPerCode+5 || got["warning"] != 0 {
		t.Errorf("got counts %v, want every diagnostic counted", got)
	}
	if got, want := r.IgnoredCount(), (MaxListedPerCode+5+1)/2; got != want {
		t.Errorf("got %d ignored, want %d", got, want)
	}
	if len(r.Skipped) != MaxListedPerCode || r.SkippedUnlisted["not-markdown"] != 2 {
		t.Errorf("got %d skipped listed and %v counted, want %d and 2", len(r.Skipped), r.SkippedUnlisted, MaxListedPerCode)
	}

	docs, counted := r.DocumentDiagnostics()
	again := Report{}
	again.ListDiagnostics(append([]schema.Diagnostic{{Path: "new", Severity: schema.SeverityWarning, Code: "previous-ignored"}}, docs...), 1, counted...)
	if got := again.DiagnosticCounts(); got["error"] != MaxListedPerCode+5 || got["warning"] != 1 || got["info"] != MaxListedPerCode+5 {
		t.Errorf("republished: got counts %v, want the documents' and the new run's own, not the old run's", got)
	}
	if again.SetupDiagnostics != 1 || again.Diagnostics[0].Code != "previous-ignored" {
		t.Errorf("republished: got %d setup diagnostics (%v first), want the new run's one", again.SetupDiagnostics, again.Diagnostics[0])
	}
}
