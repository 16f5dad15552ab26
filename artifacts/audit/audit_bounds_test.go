package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/ocean-safety/ingest/artifacts"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// pastRuns writes a previous snapshot's audit.jsonl of n runs, each a
// run_started, a rejected document and a run_completed, and returns its
// folder and bytes.
func pastRuns(t *testing.T, n int, prefix string) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	for i := range n {
		tr := fmt.Sprintf("%s%03d", prefix, i)
		fmt.Fprintf(&b, `{"trace_id":%q,"event":"run_started"}`+"\n", tr)
		fmt.Fprintf(&b, `{"trace_id":%q,"event":"document_rejected","doc_id":"d-%d","doc_version":"v"}`+"\n", tr, i)
		fmt.Fprintf(&b, `{"trace_id":%q,"event":"run_completed"}`+"\n", tr)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, artifacts.AuditFile), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, b.Bytes()
}

// TestAuditHistoryBounded (issue 31, item 10): the log a run carries from
// snapshot to snapshot keeps the newest runs, and one line first says what
// was dropped: how many runs, lines and bytes, and the SHA-256 of those
// bytes. Before, every run copied the whole history, so the log grew every
// night without end (5.3 → 21 MB in four nights of 20,000 rejected files).
func TestAuditHistoryBounded(t *testing.T) {
	prev, old := pastRuns(t, 250, "r")
	path := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err := New(path, "new", prev)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Complete(nil); err != nil {
		t.Fatal(err)
	}
	lines := auditLines(t, path)
	if got := len(lines); got != 1+100*3+2 {
		t.Fatalf("got %d lines, want the dropped history's line, 100 runs of 3 and this run's 2", got)
	}
	first := lines[0]
	if first["event"] != "history_dropped" || first["trace_id"] != "r149" {
		t.Fatalf("first line: got %v, want history_dropped for the runs up to r149", first)
	}
	cut := bytes.Index(old, []byte(`{"trace_id":"r150"`))
	sum := sha256.Sum256(old[:cut])
	counts := first["counts"].(map[string]any)
	if counts["runs"] != 150.0 || counts["lines"] != 450.0 || counts["bytes"] != float64(cut) || first["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("first line: got %v, want 150 runs, 450 lines, %d bytes and their SHA-256", first, cut)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, old[cut:]) {
		t.Error("the kept history is not the previous log's newest runs as they were")
	}
}

// TestAuditRejectedOnce: a document the history holds rejected at the same
// version is counted in run_completed, not logged again; at another
// version, or after it was ingested, it is logged.
func TestAuditRejectedOnce(t *testing.T) {
	prev := t.TempDir()
	os.WriteFile(filepath.Join(prev, artifacts.AuditFile), []byte(strings.Join([]string{
		`{"trace_id":"o","event":"document_rejected","doc_id":"d1","doc_version":"v1"}`,
		`{"trace_id":"o","event":"document_rejected","doc_id":"d2","doc_version":"v1"}`,
		`{"trace_id":"o","event":"document_rejected","doc_id":"d3","doc_version":"v1"}`,
		`{"trace_id":"o","event":"document_ingested","doc_id":"d3","doc_version":"v2"}`,
	}, "\n")+"\n"), 0o644)
	path := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err := New(path, "n", prev)
	if err != nil {
		t.Fatal(err)
	}
	errs := []schema.Diagnostic{{Severity: schema.SeverityError, Code: "missing-title"}}
	a.Rejected("d1", "v1", errs) // as it was
	a.Rejected("d2", "v2", errs) // changed, still rejected
	a.Rejected("d3", "v1", errs) // ingested since
	if err := a.Complete(map[string]int{"rejected": 3}); err != nil {
		t.Fatal(err)
	}
	var got []string
	lines := auditLines(t, path)
	for _, l := range lines[4:] {
		got = append(got, fmt.Sprint(l["event"], ":", l["doc_id"]))
	}
	if want := "run_started:<nil> document_rejected:d2 document_rejected:d3 run_completed:<nil>"; strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
	if c := lines[len(lines)-1]["counts"].(map[string]any); c["rejected"] != 3.0 || c["rejected_unchanged"] != 1.0 {
		t.Errorf("run_completed: got %v, want 3 rejected, 1 of them unchanged", c)
	}
}
