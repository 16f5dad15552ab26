package stages

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/snapshot"
)

// finish closes the Parquet file and writes the report and, last, the
// manifest into the staging folder.
func (r *run) finish(t tally, skipped []schema.Skipped, start time.Time) (*Result, error) {
	if err := r.writer.Close(); err != nil {
		return nil, err
	}
	chunksInfo, err := artifacts.Describe(r.stage.Path(artifacts.ChunksFile))
	if err != nil {
		return nil, err
	}
	chunksInfo.Rows = r.writer.Rows()

	thresholdsInfo, err := writeThresholds(r.stage.Path(artifacts.ThresholdsFile), &t.thresholds)
	if err != nil {
		return nil, err
	}

	runID := r.runID
	calls := t.calls
	calls.EmbedCalls = t.rows.embedCalls
	calls.Superseded = r.audit.Count()
	counts := t.Counts(len(skipped), r.excluded)
	if err := r.audit.Complete(map[string]int{"documents": counts.Documents, "rejected": counts.Rejected,
		"chunks": counts.Chunks, "chunks_superseded": calls.Superseded, "header_calls": calls.HeaderCalls,
		"embed_calls": calls.EmbedCalls}); err != nil {
		return nil, fmt.Errorf("write %s: %w", artifacts.AuditFile, err)
	}
	auditInfo, err := artifacts.Describe(r.stage.Path(artifacts.AuditFile))
	if err != nil {
		return nil, err
	}
	status := StatusOK
	if counts.Rejected > 0 {
		status = StatusPartial
	}
	rep := artifacts.Report{
		RunID:       runID,
		Status:      string(status),
		Diagnostics: t.diags,
		Skipped:     skipped,
		Seconds:     time.Since(start).Seconds(),
		LangFrom:    t.langFrom,
		Markup:      t.markup,
		ChunkSizes:  artifacts.NewChunkSizes(&t.rows.sizes, r.cfg.Chunk.Max),
	}
	if rep.Diagnostics == nil {
		rep.Diagnostics = []schema.Diagnostic{}
	}
	if rep.Skipped == nil {
		rep.Skipped = []schema.Skipped{}
	}
	rep.Stages = t.Stages()
	rep.Models = r.modelReport(t.models)
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ReportFile), rep); err != nil {
		return nil, err
	}
	reportInfo, err := artifacts.Describe(r.stage.Path(artifacts.ReportFile))
	if err != nil {
		return nil, err
	}

	m := artifacts.Manifest{
		Tool:              artifacts.ToolName,
		SchemaVersion:     artifacts.SchemaVersion,
		ToolVersion:       r.opt.ToolVersion,
		RunID:             runID,
		CreatedAt:         time.Now().UTC().Format(time.RFC3339),
		CorpusFingerprint: hex.EncodeToString(t.fingerprint.Sum(nil)),
		InputFingerprint:  inputFingerprint(t.input, skipped),
		BuildID:           snapshot.BuildID(),
		ConfigHash:        r.cfg.Hash(),
		HeaderWriter:      r.headers.Name(),
		Embedder:          artifacts.Component{Name: r.embed.Name(), Dims: r.embed.Dims()},
		Tokenizer:         r.chunker.Tokenizer(),
		ChunkUnit:         r.cfg.Chunk.Unit,
		ChunkMax:          r.cfg.Chunk.Max,
		Counts:            counts,
		Diagnostics:       map[string]int{"error": 0, "warning": 0, "info": 0},
		Files: map[string]artifacts.FileInfo{artifacts.ChunksFile: chunksInfo, artifacts.ReportFile: reportInfo,
			artifacts.ThresholdsFile: thresholdsInfo, artifacts.AuditFile: auditInfo},
		CacheKeys: r.keys,
		Calls:     calls,
	}
	for _, d := range t.diags {
		m.Diagnostics[string(d.Severity)]++
	}
	m.Previous = r.previousRef()
	if r.part != nil {
		if err := r.partDocs.Close(); err != nil {
			return nil, err
		}
		r.partDocs = nil
		info, err := artifacts.Describe(r.stage.Path(artifacts.DocumentsFile))
		if err != nil {
			return nil, err
		}
		info.Rows = counts.Documents + counts.Rejected + counts.Drafts
		m.Files[artifacts.DocumentsFile] = info
		m.Shard = r.part
	}
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ManifestFile), m); err != nil {
		return nil, err
	}
	return &Result{Status: status, Manifest: m, Report: rep}, nil
}

// sizeTally is an empty tally of chunk sizes in the run's budget unit.
func (r *run) sizeTally() schema.SizeTally {
	c := r.cfg.Chunk.Resolved()
	return schema.SizeTally{Unit: c.Unit, Min: c.Min}
}

// modelReport is the report's account of the model servers, when any did work.
func (r *run) modelReport(m artifacts.ModelReport) *artifacts.ModelReport {
	if models.Offline(r.headers) && models.Offline(r.embed) {
		return nil
	}
	if m.Rejects == nil {
		m.Rejects = []artifacts.Reject{}
	}
	if m.Ungrounded == nil {
		m.Ungrounded = []artifacts.UngroundedThreshold{}
	}
	type stats interface{ Stats() schema.ModelStats }
	if s, ok := r.headers.(stats); ok {
		st := s.Stats()
		m.Headers = &st
	}
	if s, ok := r.embed.(stats); ok {
		st := s.Stats()
		m.Embedder = &st
	}
	if t, ok := r.embed.(interface{ Truncations() []schema.Truncation }); ok {
		if ts := t.Truncations(); len(ts) > 0 {
			m.Truncations = ts
		}
	}
	return &m
}

// previousRef links the snapshot this run reused from, if any.
func (r *run) previousRef() *artifacts.PreviousRef {
	if r.prev == nil {
		return nil
	}
	pm := r.prev.Manifest
	return &artifacts.PreviousRef{Name: r.prev.Name(), CorpusFingerprint: pm.CorpusFingerprint, RunID: pm.RunID, ChunksSHA256: pm.Files[artifacts.ChunksFile].SHA256}
}
