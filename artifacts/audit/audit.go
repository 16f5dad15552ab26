package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/schema"
)

// Log is audit.jsonl in the snapshot: the previous snapshot's lines,
// then one line per event of this run, each with the run's trace id and
// hashes or ids instead of any text. Its methods are safe on a nil log (plan
// mode keeps none) and from two goroutines.
type Log struct {
	mu         sync.Mutex
	f          *os.File
	w          *bufio.Writer
	trace      string
	superseded int
	err        error
	// rejected is, for each document the carried history last recorded
	// rejected, the version it was rejected at; again counts the documents
	// rejected again at that version, counted in run_completed, not logged.
	rejected map[string]string
	again    int
}

// auditEvent is one line of audit.jsonl.
type auditEvent struct {
	Trace      string         `json:"trace_id"`
	Time       string         `json:"time"`
	Event      string         `json:"event"`
	DocID      string         `json:"doc_id,omitempty"`
	DocVersion string         `json:"doc_version,omitempty"` // SHA-256 of the document
	Previous   string         `json:"previous_version,omitempty"`
	ChunkIDs   []string       `json:"chunk_ids,omitempty"`
	Codes      []string       `json:"codes,omitempty"`
	Counts     map[string]int `json:"counts,omitempty"`
	SHA256     string         `json:"sha256,omitempty"` // history_dropped: of the bytes dropped
}

// New starts audit.jsonl at path with the lines of the previous
// snapshot's log (prevDir, "" for none), bounded (MaxRuns,
// MaxBytes).
func New(path, trace, prevDir string) (*Log, error) {
	return newAudit(path, trace, prevDir, auditKeep{Runs: MaxRuns, Bytes: MaxBytes})
}

func newAudit(path, trace, prevDir string, keep auditKeep) (*Log, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	a := &Log{f: f, w: bufio.NewWriter(f), trace: trace, rejected: map[string]string{}}
	if err := a.openHistory(prevDir, keep); err != nil {
		f.Close()
		return nil, err
	}
	a.event(auditEvent{Event: "run_started"})
	return a, nil
}

func (a *Log) event(e auditEvent) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	e.Trace, e.Time = a.trace, time.Now().UTC().Format(time.RFC3339)
	b, err := json.Marshal(e)
	if err == nil {
		_, err = a.w.Write(append(b, '\n'))
	}
	if err != nil && a.err == nil {
		a.err = err
	}
}

// Ingested records a document that is new or whose content changed.
func (a *Log) Ingested(docID, version, previous string) {
	if previous == version {
		return // unchanged: counted in run_completed only
	}
	a.event(auditEvent{Event: "document_ingested", DocID: docID, DocVersion: version, Previous: previous})
}

// Rejected records a document that was not ingested, with the codes of its
// errors, unless the log's history holds it rejected at this version
// already: then it is counted (rejected_unchanged in run_completed).
func (a *Log) Rejected(docID, version string, diags []schema.Diagnostic) {
	if a == nil {
		return
	}
	a.mu.Lock()
	again := version != "" && a.rejected[docID] == version
	if again {
		a.again++
	}
	a.mu.Unlock()
	if again {
		return
	}
	var codes []string
	for _, d := range diags {
		if d.Severity == schema.SeverityError {
			codes = append(codes, d.Code)
		}
	}
	a.event(auditEvent{Event: "document_rejected", DocID: docID, DocVersion: version, Codes: codes})
}

// Supersede records previous chunks that are not in the new snapshot.
func (a *Log) Supersede(docID string, ids []string) {
	if a == nil || len(ids) == 0 {
		return
	}
	a.mu.Lock()
	a.superseded += len(ids)
	a.mu.Unlock()
	a.event(auditEvent{Event: "chunks_superseded", DocID: docID, ChunkIDs: ids})
}

// Count is the number of chunks superseded so far.
func (a *Log) Count() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.superseded
}

// Complete records the end of the run and closes the file.
func (a *Log) Complete(counts map[string]int) error {
	a.mu.Lock()
	again := a.again
	a.mu.Unlock()
	if again > 0 {
		counts = maps.Clone(counts)
		if counts == nil {
			counts = map[string]int{}
		}
		counts["rejected_unchanged"] = again
	}
	a.event(auditEvent{Event: "run_completed", Counts: counts})
	a.mu.Lock()
	defer a.mu.Unlock()
	return errors.Join(a.err, a.w.Flush(), a.f.Sync(), a.f.Close())
}

// Abort closes the file of a run that publishes nothing.
func (a *Log) Abort() {
	if a != nil {
		a.f.Close()
	}
}

// Part is one part's audit log for Merge: the file and the trace
// id of the part's own run.
type Part struct {
	Path  string
	Trace string
}

// Merge starts the audit.jsonl of a merge at path: the history the
// first part inherited (its lines of other runs), then each part's own
// lines in part order, then this merge's run_started.
func Merge(path, trace string, parts []Part) (*Log, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	a := &Log{f: f, w: bufio.NewWriter(f), trace: trace}
	if len(parts) > 0 {
		first := parts[0]
		if err := a.copyLines(first.Path, func(t string) bool { return t != first.Trace }); err != nil {
			f.Close()
			return nil, err
		}
	}
	for _, p := range parts {
		if err := a.copyLines(p.Path, func(t string) bool { return t == p.Trace }); err != nil {
			f.Close()
			return nil, err
		}
	}
	a.event(auditEvent{Event: "run_started"})
	return a, nil
}

// copyLines copies the lines of the log at path whose trace id keep takes.
func (a *Log) copyLines(path string, keep func(trace string) bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var e struct {
			Trace string `json:"trace_id"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || !keep(e.Trace) {
			continue
		}
		a.w.Write(sc.Bytes()) // bufio: a write error sticks and Complete returns it
		a.w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("audit %s: %w", path, err)
	}
	return nil
}
