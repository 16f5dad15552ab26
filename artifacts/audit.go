package artifacts

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

	"github.com/ocean-safety/ingest/schema"
)

// Audit is audit.jsonl in the snapshot: the previous snapshot's lines,
// then one line per event of this run, each with the run's trace id and
// hashes or ids instead of any text. Its methods are safe on a nil log (plan
// mode keeps none) and from two goroutines.
type Audit struct {
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

// NewAudit starts audit.jsonl at path with the lines of the previous
// snapshot's log (prevDir, "" for none).
func NewAudit(path, trace, prevDir string) (*Audit, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	a := &Audit{f: f, w: bufio.NewWriter(f), trace: trace}
	if prevDir != "" {
		old, _, err := OpenRegular(filepath.Join(prevDir, AuditFile))
		if err == nil {
			lw := &lastByte{w: a.w}
			_, err = io.Copy(lw, old)
			old.Close()
			if lw.n > 0 && lw.last != '\n' {
				a.w.WriteByte('\n') // a log cut short: this run's lines still start their own
			}
		}
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			f.Close()
			return nil, fmt.Errorf("audit: copy previous log: %w", err)
		}
	}
	a.event(auditEvent{Event: "run_started"})
	return a, nil
}

// lastByte passes writes on and remembers the last byte written.
type lastByte struct {
	w    io.Writer
	n    int64
	last byte
}

func (l *lastByte) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if n > 0 {
		l.n += int64(n)
		l.last = p[n-1]
	}
	return n, err
}

func (a *Audit) event(e auditEvent) {
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
func (a *Audit) Ingested(docID, version, previous string) {
	if previous == version {
		return // unchanged: counted in run_completed only
	}
	a.event(auditEvent{Event: "document_ingested", DocID: docID, DocVersion: version, Previous: previous})
}

// Rejected records a document that was not ingested, with the codes of its
// errors.
func (a *Audit) Rejected(docID, version string, diags []schema.Diagnostic) {
	var codes []string
	for _, d := range diags {
		if d.Severity == schema.SeverityError {
			codes = append(codes, d.Code)
		}
	}
	a.event(auditEvent{Event: "document_rejected", DocID: docID, DocVersion: version, Codes: codes})
}

// Supersede records previous chunks that are not in the new snapshot.
func (a *Audit) Supersede(docID string, ids []string) {
	if a == nil || len(ids) == 0 {
		return
	}
	a.mu.Lock()
	a.superseded += len(ids)
	a.mu.Unlock()
	a.event(auditEvent{Event: "chunks_superseded", DocID: docID, ChunkIDs: ids})
}

// Count is the number of chunks superseded so far.
func (a *Audit) Count() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.superseded
}

// Complete records the end of the run and closes the file.
func (a *Audit) Complete(counts map[string]int) error {
	a.event(auditEvent{Event: "run_completed", Counts: counts})
	a.mu.Lock()
	defer a.mu.Unlock()
	return errors.Join(a.err, a.w.Flush(), a.f.Sync(), a.f.Close())
}

// Abort closes the file of a run that publishes nothing.
func (a *Audit) Abort() {
	if a != nil {
		a.f.Close()
	}
}

// PartAudit is one part's audit log for MergeAudit: the file and the trace
// id of the part's own run.
type PartAudit struct {
	Path  string
	Trace string
}

// MergeAudit starts the audit.jsonl of a merge at path: the history the
// first part inherited (its lines of other runs), then each part's own
// lines in part order, then this merge's run_started.
func MergeAudit(path, trace string, parts []PartAudit) (*Audit, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	a := &Audit{f: f, w: bufio.NewWriter(f), trace: trace}
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
func (a *Audit) copyLines(path string, keep func(trace string) bool) error {
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
