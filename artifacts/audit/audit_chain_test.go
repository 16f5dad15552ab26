package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"github.com/ocean-safety/ingest/artifacts"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditHistoryChained: a log cut again drops the earlier
// history_dropped line with the oldest runs it keeps, and its own line's
// hash covers that line: the dropped parts chain back to the first run.
// Under the byte bound whole runs go first; a newest run over the bound
// alone loses its oldest lines.
func TestAuditHistoryChained(t *testing.T) {
	prev, _ := pastRuns(t, 10, "a")
	once := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err := newAudit(once, "b000", prev, auditKeep{Runs: 4, Bytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	a.Complete(nil)
	onceBytes, _ := os.ReadFile(once)
	twice := filepath.Join(t.TempDir(), artifacts.AuditFile)
	a, err = newAudit(twice, "c000", filepath.Dir(once), auditKeep{Runs: 2, Bytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	a.Complete(nil)
	lines := auditLines(t, twice)
	var traces []string
	for _, l := range lines {
		traces = append(traces, l["trace_id"].(string)+":"+l["event"].(string)[:5])
	}
	if got, want := strings.Join(traces, " "), "a008:histo a009:run_s a009:docum a009:run_c b000:run_s b000:run_c c000:run_s c000:run_c"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	cut := bytes.Index(onceBytes, []byte(`{"trace_id":"a009"`))
	sum := sha256.Sum256(onceBytes[:cut])
	if !bytes.HasPrefix(onceBytes, []byte(`{"trace_id":"a005","time":`)) || lines[0]["sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("got %v first; want the hash of the earlier log's dropped start, its own history_dropped line first", lines[0])
	}

	// A byte bound that holds two runs of three lines but not three.
	prev, old := pastRuns(t, 5, "d")
	small := filepath.Join(t.TempDir(), artifacts.AuditFile)
	run := int64(bytes.Index(old, []byte(`{"trace_id":"d001"`)))
	a, _ = newAudit(small, "e", prev, auditKeep{Runs: 100, Bytes: 2*run + run/2})
	a.Complete(nil)
	if got := auditLines(t, small); len(got) != 1+2*3+2 || got[0]["counts"].(map[string]any)["runs"] != 3.0 {
		t.Errorf("byte bound: got %d lines (%v first), want 3 runs dropped and 2 kept", len(got), got[0])
	}
	a, _ = newAudit(small, "e", prev, auditKeep{Runs: 100, Bytes: run / 2})
	a.Complete(nil)
	if got := auditLines(t, small); len(got) > 1+2+2 || got[0]["event"] != "history_dropped" || got[0]["trace_id"] != "d004" {
		t.Errorf("a run over the bound: got %d lines (%v first), want the last run's newest lines only", len(got), got[0])
	}
}
