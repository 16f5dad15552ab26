package stages

import (
	"errors"
	"fmt"
	"os"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/audit"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
)

// Closing is what a run and a merge (package stages/merge) close a snapshot
// with, in the order the files are written: chunks.parquet (its writer closed by Chunks),
// thresholds.md, audit.jsonl completed with the snapshot's counts,
// diagnostics.jsonl, report.json (its diagnostics sampled and counted from
// diagnostics.jsonl's), documents.jsonl, and last the manifest,
// which records them all.
type Closing struct {
	Chunks      func() (rows int, err error)
	ChunksInfo  func() artifacts.FileInfo // chunks.parquet's size and hash as its writer wrote it (nil: read again)
	Thresholds  *thresholds.Proposal
	Audit       *audit.Log
	AuditMore   map[string]int      // more counts for the audit's last event (a merge's parts)
	Diagnostics *diagnostics.Writer // every diagnostic, written as the run went; Seal closes it
	Report      artifacts.Report
	Setup       int                          // how many of the diagnostics, at their head, are the run's own (its listing's, its previous snapshot's)
	Documents   func() (rows int, err error) // the documents list (nil: none, a merge of parts of an older ingest)
	// Manifest is the snapshot's manifest with its Counts and Calls: Seal
	// adds the files, the counts by severity and the status's consequences.
	Manifest artifacts.Manifest
}

// Seal writes the closing files into the staging folder and returns the
// result: a snapshot with a rejected document is partial.
func Seal(stage *publish.Staging, c Closing) (*Result, error) {
	m, rep := c.Manifest, c.Report
	rep.SetDiagnostics(c.Diagnostics.Digest(), c.Setup)
	m.Diagnostics = rep.DiagnosticCounts()
	status := StatusOK
	if m.Counts.Rejected > 0 || m.Diagnostics[string(schema.SeverityError)] > 0 {
		status = StatusPartial
	}
	rep.Status = string(status)
	if rep.Skipped == nil {
		rep.Skipped = []schema.Skipped{}
	}
	if m.Shard == nil { // a whole snapshot's report is bounded; a part's skipped files and truncations go whole to the merge
		rep.Bound()
	}
	counts := verify.Recorded(m.Counts)
	counts["chunks_superseded"], counts["header_calls"], counts["embed_calls"] = m.Calls.Superseded, m.Calls.HeaderCalls, m.Calls.EmbedCalls
	for k, n := range c.AuditMore {
		counts[k] = n
	}
	files := []publish.Closing{
		{Name: artifacts.ChunksFile, Write: func(string) (int, error) { return c.Chunks() }, Written: c.ChunksInfo},
		{Name: artifacts.ThresholdsFile, Write: func(path string) (int, error) { return writeThresholds(path, c.Thresholds) }},
		{Name: artifacts.AuditFile, Write: func(string) (int, error) {
			if err := c.Audit.Complete(counts); err != nil {
				return 0, fmt.Errorf("write %s: %w", artifacts.AuditFile, err)
			}
			return 0, nil
		}},
		{Name: artifacts.DiagnosticsFile, Write: func(string) (int, error) { return c.Diagnostics.Close() }},
		{Name: artifacts.ReportFile, Write: func(path string) (int, error) { return 0, artifacts.WriteJSON(path, rep) }},
	}
	if c.Documents != nil {
		files = append(files, publish.Closing{Name: artifacts.DocumentsFile, Write: func(string) (int, error) { return c.Documents() }})
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
