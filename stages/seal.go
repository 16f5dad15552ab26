package stages

import (
	"errors"
	"fmt"
	"os"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/snapshot"
	"github.com/ocean-safety/ingest/thresholds"
)

// closing is what a run and a merge close a snapshot with, in the order
// the files are written: chunks.parquet (its writer closed by chunks),
// thresholds.md, audit.jsonl completed with the snapshot's counts,
// report.json, a part's documents.jsonl, and last the manifest, which
// records them all.
type closing struct {
	chunks     func() (rows int, err error)
	thresholds *thresholds.Proposal
	audit      *snapshot.Audit
	auditMore  map[string]int // more counts for the audit's last event (a merge's parts)
	report     artifacts.Report
	documents  func() (rows int, err error) // a part's documents list; nil for a whole snapshot
	// manifest is the snapshot's manifest with its Counts and Calls: seal
	// adds the files, the counts by severity and the status's consequences.
	manifest artifacts.Manifest
}

// seal writes the closing files into the staging folder and returns the
// result: a snapshot with a rejected document is partial.
func seal(stage *depot.Staging, c closing) (*Result, error) {
	m, rep := c.manifest, c.report
	status := StatusOK
	if m.Counts.Rejected > 0 {
		status = StatusPartial
	}
	rep.Status = string(status)
	if rep.Diagnostics == nil {
		rep.Diagnostics = []schema.Diagnostic{}
	}
	if rep.Skipped == nil {
		rep.Skipped = []schema.Skipped{}
	}
	m.Diagnostics = map[string]int{"error": 0, "warning": 0, "info": 0}
	for _, d := range rep.Diagnostics {
		m.Diagnostics[string(d.Severity)]++
	}
	counts := map[string]int{"documents": m.Counts.Documents, "rejected": m.Counts.Rejected, "chunks": m.Counts.Chunks,
		"chunks_superseded": m.Calls.Superseded, "header_calls": m.Calls.HeaderCalls, "embed_calls": m.Calls.EmbedCalls}
	for k, n := range c.auditMore {
		counts[k] = n
	}
	files := []depot.Closing{
		{Name: artifacts.ChunksFile, Write: func(string) (int, error) { return c.chunks() }},
		{Name: artifacts.ThresholdsFile, Write: func(path string) (int, error) { return writeThresholds(path, c.thresholds) }},
		{Name: artifacts.AuditFile, Write: func(string) (int, error) {
			if err := c.audit.Complete(counts); err != nil {
				return 0, fmt.Errorf("write %s: %w", artifacts.AuditFile, err)
			}
			return 0, nil
		}},
		{Name: artifacts.ReportFile, Write: func(path string) (int, error) { return 0, artifacts.WriteJSON(path, rep) }},
	}
	if c.documents != nil {
		files = append(files, depot.Closing{Name: artifacts.DocumentsFile, Write: func(string) (int, error) { return c.documents() }})
	}
	m.Files = map[string]artifacts.FileInfo{}
	if err := stage.Seal(&m, files...); err != nil {
		return nil, err
	}
	return &Result{Status: status, Manifest: m, Report: rep}, nil
}

// writeThresholds writes the thresholds proposal to path, and returns how
// many thresholds it holds.
func writeThresholds(path string, p *thresholds.Proposal) (int, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	_, werr := p.WriteTo(f)
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		return 0, fmt.Errorf("write %s: %w", artifacts.ThresholdsFile, err)
	}
	return p.Len(), nil
}
