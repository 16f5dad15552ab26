package artifacts

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/schema"
)

// TestReportBound: a report samples its diagnostics and counts every one
// by code and severity, and keeps the first MaxListedPerCode skipped files
// of each reason, counting the rest.
func TestReportBound(t *testing.T) {
	var g diagnostics.Digest
	g.Add(schema.Diagnostic{Path: "lost+found", Severity: schema.SeverityError, Code: "unreadable"})
	n := diagnostics.MaxSampled + 5
	for i := range n {
		g.Add(schema.Diagnostic{Path: fmt.Sprintf("d%05d.md", i), Severity: schema.SeverityError, Code: "missing-title"})
		g.Add(schema.Diagnostic{Path: fmt.Sprintf("d%05d.md", i), Severity: schema.SeverityInfo, Code: "oversize", Ignored: i%2 == 0})
	}
	var sk []schema.Skipped
	for i := range MaxListedPerCode + 2 {
		sk = append(sk, schema.Skipped{Path: fmt.Sprintf("img%05d.png", i), Reason: "not-markdown"})
	}
	r := Report{Skipped: sk}
	r.SetDiagnostics(&g, 1)
	r.Bound()
	if got, want := len(r.Diagnostics), 1+2*diagnostics.MaxSampled; got != want {
		t.Errorf("got %d diagnostics sampled, want %d", got, want)
	}
	if r.SetupDiagnostics != 1 || r.Diagnostics[0].Code != "unreadable" {
		t.Errorf("got %d setup diagnostics (%v first), want the one, first", r.SetupDiagnostics, r.Diagnostics[0])
	}
	if got := r.DiagnosticCounts(); got["error"] != 1+n || got["info"] != n || got["warning"] != 0 {
		t.Errorf("got counts %v, want every diagnostic counted", got)
	}
	if got, want := r.IgnoredCount(), (n+1)/2; got != want {
		t.Errorf("got %d ignored, want %d", got, want)
	}
	if got := fmt.Sprint(r.DiagnosticCodes()); got != "[missing-title oversize unreadable]" {
		t.Errorf("got codes %s, want every code once, sorted", got)
	}
	if len(r.Skipped) != MaxListedPerCode || r.SkippedUnlisted["not-markdown"] != 2 {
		t.Errorf("got %d skipped listed and %v counted, want %d and 2", len(r.Skipped), r.SkippedUnlisted, MaxListedPerCode)
	}
}

// TestReportWrittenBefore: a report written before diagnostics.jsonl (its
// diagnostics listed up to 1,000 a code, the rest counted) still gives its
// counts, its ignored diagnostics and its codes.
func TestReportWrittenBefore(t *testing.T) {
	old := `{"diagnostics": [{"path": "a.md", "severity": "warning", "code": "missing-title", "ignored": true},
		{"path": "b.md", "severity": "error", "code": "missing-source"}],
		"diagnostics_unlisted": [{"code": "missing-title", "severity": "warning", "count": 4, "ignored": 1}]}`
	var r Report
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.DiagnosticCounts(); got["error"] != 1 || got["warning"] != 5 || got["info"] != 0 {
		t.Errorf("got %v, want 1 error and 5 warnings", got)
	}
	if got := r.IgnoredCount(); got != 2 {
		t.Errorf("got %d ignored, want 2", got)
	}
	if got := fmt.Sprint(r.DiagnosticCodes()); got != "[missing-source missing-title]" {
		t.Errorf("got codes %s, want both", got)
	}
}
