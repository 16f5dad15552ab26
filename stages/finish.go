package stages

import (
	"encoding/hex"
	"slices"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
)

// finish closes the snapshot in the staging folder: the Parquet file, the
// thresholds, the audit log, the report, a part's documents list and, last,
// the manifest (see Seal).
func (r *run) finish(t tally, skipped []schema.Skipped, start time.Time) (*Result, error) {
	calls := t.calls
	calls.EmbedCalls = t.rows.embedCalls
	calls.Superseded = r.audit.Count()
	rep := artifacts.Report{
		RunID:      r.runID,
		Skipped:    skipped,
		Seconds:    time.Since(start).Seconds(),
		LangFrom:   t.langFrom,
		Markup:     t.markup,
		ChunkSizes: artifacts.NewChunkSizes(&t.rows.sizes, r.cfg.Chunk.Max),
		Stages:     t.Stages(),
		Models:     r.modelReport(t.models),
	}
	if r.part != nil {
		r.part.Sizes = &t.rows.sizes
	}
	m := artifacts.Manifest{
		Tool:              artifacts.ToolName,
		SchemaVersion:     artifacts.SchemaVersion,
		ToolVersion:       r.opt.ToolVersion,
		RunID:             r.runID,
		CreatedAt:         time.Now().UTC().Format(time.RFC3339),
		CorpusFingerprint: hex.EncodeToString(t.fingerprint.Sum(nil)),
		InputFingerprint:  InputFingerprint(t.input, skipped),
		BuildID:           reuse.BuildID(),
		ConfigHash:        r.cfg.Hash(),
		HeaderWriter:      r.headers.Name(),
		Embedder:          artifacts.Component{Name: r.embed.Name(), Dims: r.embed.Dims()},
		Tokenizer:         r.chunker.Tokenizer(),
		ChunkUnit:         r.cfg.Chunk.Unit,
		ChunkMax:          r.cfg.Chunk.Max,
		Counts:            t.Counts(len(skipped), r.excluded),
		EmptyDocuments:    sortedPaths(t.empty),
		CacheKeys:         r.keys,
		Previous:          r.previousRef(),
		Calls:             calls,
		Shard:             r.part,
		RelevanceFloor:    r.relevanceFloor(),
	}
	c := Closing{
		Chunks: func() (int, error) {
			if err := r.writer.Close(); err != nil {
				return 0, err
			}
			r.opt.Logger.Info("chunks written", "rows", r.writer.Rows(), "row groups copied", r.writer.Copied())
			return r.writer.Rows(), nil
		},
		ChunksInfo: r.writer.Info,
		Thresholds: &t.thresholds, Audit: r.audit, Diagnostics: r.diags, Report: rep, Setup: len(r.setup), Manifest: m,
		Documents: func() (int, error) {
			if err := r.partDocs.Close(); err != nil {
				return 0, err
			}
			r.partDocs = nil
			return m.Counts.Documents + m.Counts.Rejected + m.Counts.Drafts, nil
		},
	}
	return Seal(r.stage, c)
}

// relevanceFloor is the floor the manifest records for the run's embedder
// (Options.RelevanceFloor).
func (r *run) relevanceFloor() *artifacts.RelevanceFloor {
	if r.opt.RelevanceFloor == nil {
		return nil
	}
	return r.opt.RelevanceFloor(r.embed.Name())
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

// sortedPaths sorts paths (in corpus order already, which is not
// necessarily byte order), nil for none.
func sortedPaths(paths []string) []string {
	if len(paths) == 0 {
		return nil
	}
	out := slices.Clone(paths)
	slices.Sort(out)
	return out
}
