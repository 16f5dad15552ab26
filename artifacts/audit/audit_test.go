package audit

import (
	"bufio"
	"encoding/json"
	"github.com/ocean-safety/ingest/artifacts"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func auditLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// TestAudit: a run's log carries the previous snapshot's lines, then its
// own events with its trace id, ids and hashes but never text; an
// unchanged document is not an event; a nil log (a plan) takes every call.
func TestAudit(t *testing.T) {
	prev := t.TempDir()
	os.WriteFile(filepath.Join(prev, artifacts.AuditFile), []byte(`{"trace_id":"old","event":"run_started"}`+"\n"+`{"trace_id":"old","event":"run_completed"}`+"\n"), 0o644)
	path := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err := New(path, "new", prev)
	if err != nil {
		t.Fatal(err)
	}
	a.Ingested("doc-1", "v2", "v1")
	a.Ingested("doc-2", "v1", "v1")
	a.Rejected("doc-3", "v9", []schema.Diagnostic{{Severity: schema.SeverityWarning, Code: "table-in-prose"}, {Severity: schema.SeverityError, Code: "missing-title"}})
	a.Supersede("doc-1", []string{"c1", "c2"})
	if a.Count() != 2 {
		t.Errorf("Count: got %d, want 2", a.Count())
	}
	if err := a.Complete(map[string]int{"chunks": 5}); err != nil {
		t.Fatal(err)
	}
	lines := auditLines(t, path)
	var events []string
	for _, l := range lines {
		events = append(events, l["trace_id"].(string)+":"+l["event"].(string))
	}
	want := "old:run_started old:run_completed new:run_started new:document_ingested new:document_rejected new:chunks_superseded new:run_completed"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("got events %s, want %s", got, want)
	}
	if codes := lines[4]["codes"].([]any); len(codes) != 1 || codes[0] != "missing-title" {
		t.Errorf("rejected: got codes %v, want the error's only", codes)
	}

	var nilLog *Log
	nilLog.Ingested("d", "v", "")
	nilLog.Supersede("d", []string{"c"})
	nilLog.Abort()
	if nilLog.Count() != 0 {
		t.Error("a nil log counted")
	}
}

// TestAuditPreviousCutShort: a previous log whose last line lacks its
// newline does not swallow this run's first line.
func TestAuditPreviousCutShort(t *testing.T) {
	prev := t.TempDir()
	os.WriteFile(filepath.Join(prev, artifacts.AuditFile), []byte(`{"trace_id":"old","event":"run_completed"}`), 0o644)
	path := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err := New(path, "new", prev)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Complete(nil); err != nil {
		t.Fatal(err)
	}
	if lines := auditLines(t, path); len(lines) != 3 {
		t.Errorf("got %d lines, want 3 (the old one, run_started, run_completed)", len(lines))
	}
}

// TestMergeAudit: a merge's log is the history the first part inherited,
// each part's own lines in part order, then the merge's run_started.
func TestMergeAudit(t *testing.T) {
	dir := t.TempDir()
	p0, p1 := filepath.Join(dir, "p0.jsonl"), filepath.Join(dir, "p1.jsonl")
	os.WriteFile(p0, []byte(`{"trace_id":"old","event":"run_completed"}`+"\n"+`{"trace_id":"s0","event":"document_ingested"}`+"\n"), 0o644)
	os.WriteFile(p1, []byte(`{"trace_id":"old","event":"run_completed"}`+"\n"+`{"trace_id":"s1","event":"document_ingested"}`+"\n"+"not json\n"), 0o644)
	path := filepath.Join(dir, "merged.jsonl")
	a, err := Merge(path, "m", []Part{{Path: p0, Trace: "s0"}, {Path: p1, Trace: "s1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Complete(nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range auditLines(t, path) {
		got = append(got, l["trace_id"].(string)+":"+l["event"].(string))
	}
	if want := "old:run_completed s0:document_ingested s1:document_ingested m:run_started m:run_completed"; strings.Join(got, " ") != want {
		t.Errorf("got %s, want %s", strings.Join(got, " "), want)
	}
}
