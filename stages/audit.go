package stages

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
)

// auditLog is audit.jsonl in the snapshot: the previous snapshot's lines,
// then one line per event of this run, each with the run's trace id and
// hashes or ids instead of any text. Its methods are safe on a nil log (plan
// mode keeps none) and from two goroutines.
type auditLog struct {
	mu         sync.Mutex
	f          *os.File
	w          *bufio.Writer
	trace      string
	superseded int
	err        error
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
}

// newAudit starts audit.jsonl at path with the lines of the previous
// snapshot's log (prevDir, "" for none).
func newAudit(path, trace, prevDir string) (*auditLog, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	a := &auditLog{f: f, w: bufio.NewWriter(f), trace: trace}
	if prevDir != "" {
		old, err := os.Open(filepath.Join(prevDir, artifacts.AuditFile))
		if err == nil {
			_, err = io.Copy(a.w, old)
			old.Close()
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			f.Close()
			return nil, fmt.Errorf("audit: copy previous log: %w", err)
		}
	}
	a.event(auditEvent{Event: "run_started"})
	return a, nil
}

func (a *auditLog) event(e auditEvent) {
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

// ingested records a document that is new or whose content changed.
func (a *auditLog) ingested(res docResult) {
	if res.prev.version == res.doc.Version {
		return // unchanged: counted in run_completed only
	}
	a.event(auditEvent{Event: "document_ingested", DocID: DocID(res.path), DocVersion: res.doc.Version, Previous: res.prev.version})
}

func (a *auditLog) rejected(res docResult) {
	var codes []string
	for _, d := range res.diags {
		if d.Severity == "error" {
			codes = append(codes, d.Code)
		}
	}
	a.event(auditEvent{Event: "document_rejected", DocID: DocID(res.path), DocVersion: res.doc.Version, Codes: codes})
}

// supersede records previous chunks that are not in the new snapshot.
func (a *auditLog) supersede(docID string, ids []string) {
	if a == nil || len(ids) == 0 {
		return
	}
	a.mu.Lock()
	a.superseded += len(ids)
	a.mu.Unlock()
	a.event(auditEvent{Event: "chunks_superseded", DocID: docID, ChunkIDs: ids})
}

func (a *auditLog) count() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.superseded
}

// complete records the end of the run and closes the file.
func (a *auditLog) complete(counts map[string]int) error {
	a.event(auditEvent{Event: "run_completed", Counts: counts})
	a.mu.Lock()
	defer a.mu.Unlock()
	return errors.Join(a.err, a.w.Flush(), a.f.Sync(), a.f.Close())
}

func (a *auditLog) abort() {
	if a != nil {
		a.f.Close()
	}
}
