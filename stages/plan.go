package stages

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// PlanResult is what a run would do, counted without doing it.
type PlanResult struct {
	Documents      int
	Rejected       int
	Chunks         int
	Bytes          int64 // of the documents read
	HeaderCalls    int   // chunks whose header a model would write (tables never go to a model)
	EmbeddingCalls int   // batches of embed.batch_size
	Diagnostics    []schema.Diagnostic
	Seconds        float64
}

// Plan reads and chunks the corpus with the same workers and order as Run,
// and counts the chunks and the model and embedding calls a run would make.
// It writes nothing and calls no model.
func Plan(ctx context.Context, cfg Config) (*PlanResult, error) {
	r, err := newRun(cfg, Options{})
	if err != nil {
		return nil, err
	}
	r.plan = &PlanResult{}
	start := time.Now()
	paths, _, err := corpus.Scan(cfg.Corpus)
	if err != nil {
		return nil, err
	}
	ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
	r.stream(ctx, paths)
	if err := r.failed(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := r.plan
	p.Documents, p.Rejected, p.Diagnostics = r.counts.Documents, r.counts.Rejected, r.diags
	p.EmbeddingCalls = (p.Chunks + cfg.Embed.BatchSize - 1) / cfg.Embed.BatchSize
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

// planned counts a document's chunks in plan mode; nothing goes on to embed.
func (r *run) planned(res docResult) {
	r.plan.Bytes += int64(len(res.doc.Text))
	r.plan.Chunks += len(res.chunks)
	for _, c := range res.chunks {
		if c.Element != schema.ElementTableRow {
			r.plan.HeaderCalls++
		}
	}
}
