package push

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Audit record kinds, one line each in the state folder's audit.jsonl.
const (
	AuditStarted  = "push_started"
	AuditPushed   = "document_version_pushed"
	AuditDeleted  = "document_version_deleted"
	AuditFinished = "push_finished"
)

// AuditRecord is one line of audit.jsonl: ids, counts and hashes, never
// text or an embedding.
type AuditRecord struct {
	Kind        string `json:"kind"`
	Time        string `json:"time"`
	TraceID     string `json:"trace_id"`              // the push's: every request's traceparent carries it
	Traceparent string `json:"traceparent,omitempty"` // of the request that completed the version or delete
	Destination string `json:"destination,omitempty"`
	Tenant      string `json:"tenant_id,omitempty"`
	SourceLabel string `json:"source_label,omitempty"`
	Snapshot    string `json:"snapshot,omitempty"`
	DocID       string `json:"doc_id,omitempty"`
	VersionID   string `json:"version_id,omitempty"`
	DocPath     string `json:"doc_path,omitempty"`
	Reason      string `json:"reason,omitempty"`
	ChunkCount  int    `json:"chunk_count,omitempty"`
	// ChunkSHA256 is the SHA-256 of each chunk's text, in chunk order.
	ChunkSHA256 []string `json:"chunk_sha256,omitempty"`
	Status      string   `json:"status,omitempty"` // push_finished: ok | failed
	Error       string   `json:"error,omitempty"`
	Sent        *counts  `json:"sent,omitempty"`
	Seconds     float64  `json:"seconds,omitempty"`
}

// audit appends records to audit.jsonl. Each record is written before the
// journal line of the request it reports, so a kill between the two
// repeats a record rather than losing one; the file is synced with the
// journal and at the end.
type audit struct {
	f     *os.File
	trace string
	err   error
}

func openAudit(dir, trace string) (*audit, error) {
	f, err := os.OpenFile(filepath.Join(dir, auditFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("push audit: %w", err)
	}
	return &audit{f: f, trace: trace}, nil
}

func (a *audit) write(r AuditRecord) {
	if a == nil || a.err != nil {
		return
	}
	r.Time, r.TraceID = time.Now().UTC().Format(time.RFC3339Nano), a.trace
	b, err := json.Marshal(r)
	if err == nil {
		_, err = a.f.Write(append(b, '\n'))
	}
	if err != nil {
		a.err = fmt.Errorf("push audit: %w", err)
	}
}

func (a *audit) sync() error {
	if a == nil {
		return nil
	}
	if a.err != nil {
		return a.err
	}
	return a.f.Sync()
}

func (a *audit) close() error {
	if a == nil {
		return nil
	}
	err := a.sync()
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	return err
}
