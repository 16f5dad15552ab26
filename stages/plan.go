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
	start := time.Now()
	listing, err := corpus.ScanFiltered(cfg.Corpus, cfg.Filter)
	if err != nil {
		return nil, err
	}
	paths := listing.Docs
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.errs.cancel = cancel
	p := &PlanResult{}
	r.scan(ctx, paths, func(res docResult) {
		if res.err != nil {
			r.errs.set(res.err)
			return
		}
		p.Diagnostics = append(p.Diagnostics, res.diags...)
		if res.rejected {
			p.Rejected++
			return
		}
		if res.doc.Draft {
			return
		}
		p.Documents++
		p.Bytes += int64(len(res.doc.Text))
		p.Chunks += len(res.chunks)
		for _, c := range res.chunks {
			if c.Element != schema.ElementTableRow {
				p.HeaderCalls++
			}
		}
	})
	if err := r.errs.get(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.EmbeddingCalls = (p.Chunks + cfg.Embed.BatchSize - 1) / cfg.Embed.BatchSize
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}
