package stages

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
)

// finish closes the Parquet file and writes the report and, last, the
// manifest into the staging folder.
func (r *run) finish(skipped []schema.Skipped, docs int, start time.Time) (*Result, error) {
	if err := r.writer.Close(); err != nil {
		return nil, err
	}
	chunksInfo, err := artifacts.Describe(r.stage.Path(artifacts.ChunksFile))
	if err != nil {
		return nil, err
	}
	chunksInfo.Rows = r.writer.Rows()

	thresholds.Sort(r.thresholds)
	tf, err := os.Create(r.stage.Path(artifacts.ThresholdsFile))
	if err != nil {
		return nil, err
	}
	werr := thresholds.Write(tf, r.thresholds)
	if err := errors.Join(werr, tf.Sync(), tf.Close()); err != nil {
		return nil, fmt.Errorf("write %s: %w", artifacts.ThresholdsFile, err)
	}
	thresholdsInfo, err := artifacts.Describe(r.stage.Path(artifacts.ThresholdsFile))
	if err != nil {
		return nil, err
	}
	thresholdsInfo.Rows = len(r.thresholds)

	runID := r.runID
	calls := artifacts.Calls{
		HeaderCalls:   int(r.calls.headerCalls.Load()),
		EmbedCalls:    int(r.calls.embedCalls.Load()),
		HeadersReused: int(r.calls.headersReused.Load()),
		VectorsReused: int(r.calls.vectorsReused.Load()),
		FromJournal:   int(r.calls.fromJournal.Load()),
		Superseded:    r.audit.count(),
	}
	if err := r.audit.complete(map[string]int{"documents": r.counts.Documents, "rejected": r.counts.Rejected,
		"chunks": r.counts.Chunks, "chunks_superseded": calls.Superseded, "header_calls": calls.HeaderCalls,
		"embed_calls": calls.EmbedCalls}); err != nil {
		return nil, fmt.Errorf("write %s: %w", artifacts.AuditFile, err)
	}
	auditInfo, err := artifacts.Describe(r.stage.Path(artifacts.AuditFile))
	if err != nil {
		return nil, err
	}
	status := StatusOK
	if r.counts.Rejected > 0 {
		status = StatusPartial
	}
	rep := artifacts.Report{
		RunID:       runID,
		Status:      string(status),
		Diagnostics: r.diags,
		Skipped:     skipped,
		Seconds:     time.Since(start).Seconds(),
	}
	if rep.Diagnostics == nil {
		rep.Diagnostics = []schema.Diagnostic{}
	}
	if rep.Skipped == nil {
		rep.Skipped = []schema.Skipped{}
	}
	for _, s := range stageOrder {
		rep.Stages = append(rep.Stages, *r.stats[s])
	}
	rep.Models = r.modelReport()
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ReportFile), rep); err != nil {
		return nil, err
	}
	reportInfo, err := artifacts.Describe(r.stage.Path(artifacts.ReportFile))
	if err != nil {
		return nil, err
	}

	counts := r.counts
	counts.Skipped = len(skipped)
	if counts.ByKind == nil { // no chunks: write {} rather than null
		counts.ByKind, counts.ByLang, counts.ByElement = map[string]int{}, map[string]int{}, map[string]int{}
	}
	m := artifacts.Manifest{
		SchemaVersion:     artifacts.SchemaVersion,
		ToolVersion:       r.opt.ToolVersion,
		RunID:             runID,
		CreatedAt:         time.Now().UTC().Format(time.RFC3339),
		CorpusFingerprint: hex.EncodeToString(r.fingerprint.Sum(nil)),
		InputFingerprint:  inputFingerprint(r.input, skipped),
		BuildID:           buildID(),
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
	for _, d := range r.diags {
		m.Diagnostics[string(d.Severity)]++
	}
	if r.prev != nil {
		pm := r.prev.manifest
		m.Previous = &artifacts.PreviousRef{Name: snapshotName(pm), CorpusFingerprint: pm.CorpusFingerprint, RunID: pm.RunID, ChunksSHA256: pm.Files[artifacts.ChunksFile].SHA256}
	}
	if err := artifacts.WriteJSON(r.stage.Path(artifacts.ManifestFile), m); err != nil {
		return nil, err
	}
	return &Result{Status: status, Manifest: m, Report: rep}, nil
}

// modelReport is the report's account of the model servers, when any did work.
func (r *run) modelReport() *artifacts.ModelReport {
	if offline(r.headers) && offline(r.embed) {
		return nil
	}
	m := r.models
	if m.Rejects == nil {
		m.Rejects = []artifacts.Reject{}
	}
	if m.Ungrounded == nil {
		m.Ungrounded = []artifacts.UngroundedThreshold{}
	}
	type stats interface{ Stats() ModelStats }
	if s, ok := r.headers.(stats); ok {
		m.Headers = s.Stats()
	}
	if s, ok := r.embed.(stats); ok {
		m.Embedder = s.Stats()
	}
	if t, ok := r.embed.(interface{ Truncations() []Truncation }); ok {
		if ts := t.Truncations(); len(ts) > 0 {
			m.Truncations = ts
		}
	}
	return &m
}
