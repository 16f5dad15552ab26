package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ocean-safety/ingest/artifacts"
	"os"
	"time"

	"github.com/ocean-safety/ingest/artifacts/internal/history"
)

// How much of the previous snapshots' audit log a run carries. The log is
// copied from snapshot to snapshot, so without a bound it grows every night
// for ever (20,000 rejected files added 5.26 MB a night). A run keeps the
// newest MaxRuns runs of history, and of those no more than
// MaxBytes, cutting whole runs where it can. What it drops is not
// lost silently: a history_dropped line, first in the log, counts the runs,
// lines and bytes dropped and gives the SHA-256 of exactly those bytes, the
// start of the log an older snapshot (a publish folder's earlier snapshots,
// a bucket's versions, a backup) holds, so an auditor can match the two
// byte for byte; since those bytes begin with the older log's own
// history_dropped line, the lines chain back to the first run. What is
// kept is contiguous and copied as it was.
const (
	MaxRuns  = 100      // about three months of nightly runs, far more than a publish folder keeps
	MaxBytes = 64 << 20 // a few hundred thousand events
)

// auditKeep is what a log keeps of its history (tests make it small).
type auditKeep = history.Keep

// carry copies the previous log at path into a's file, bounded by keep
// (history.Copy), and learns which documents stand rejected in it at
// which version.
func (a *Log) carry(path string, keep auditKeep) error {
	old, size, err := artifacts.OpenRegular(path)
	if err != nil {
		return err
	}
	defer old.Close()
	marker := func(d history.Dropped) []byte {
		b, _ := json.Marshal(auditEvent{Trace: d.Trace, Time: time.Now().UTC().Format(time.RFC3339), Event: history.Event,
			Counts: map[string]int{"runs": d.Runs, "lines": d.Lines, "bytes": int(d.Bytes)}, SHA256: d.SHA256})
		return append(b, '\n')
	}
	if err := history.Copy(a.w, old, size, keep, marker, a.learn); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// learn keeps, from a line carried, which version of a document stands
// rejected: a document rejected again at that version is counted, not
// logged again (as an unchanged document that is ingested is not).
func (a *Log) learn(line []byte) {
	var l struct {
		Event      string `json:"event"`
		DocID      string `json:"doc_id"`
		DocVersion string `json:"doc_version"`
	}
	if json.Unmarshal(line, &l) != nil || l.DocID == "" {
		return
	}
	switch l.Event {
	case "document_rejected":
		a.rejected[l.DocID] = l.DocVersion
	case "document_ingested":
		delete(a.rejected, l.DocID)
	}
}

// openHistory is New's previous log, or none.
func (a *Log) openHistory(prevDir string, keep auditKeep) error {
	if prevDir == "" {
		return nil
	}
	err := a.carry(prevDir+string(os.PathSeparator)+artifacts.AuditFile, keep)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("audit: copy previous log: %w", err)
	}
	return nil
}
