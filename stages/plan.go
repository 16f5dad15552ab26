package stages

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/snapshot"
)

// PlanResult is what a run would do, counted without doing it.
type PlanResult struct {
	Documents      int                 `json:"documents"`
	Rejected       int                 `json:"rejected"`
	Chunks         int                 `json:"chunks"`
	Bytes          int64               `json:"bytes"`           // of the documents read
	HeaderCalls    int                 `json:"header_calls"`    // chunks whose header a model would write
	HeadersReused  int                 `json:"headers_reused"`  // from the previous snapshot or the journal
	EmbeddingCalls int                 `json:"embedding_calls"` // batches the embedder would be sent
	VectorsReused  int                 `json:"vectors_reused"`
	Previous       string              `json:"previous,omitempty"` // the snapshot reused from
	Diagnostics    []schema.Diagnostic `json:"diagnostics"`
	Seconds        float64             `json:"seconds"`
}

// Plan reads, chunks and normalises the corpus with the same workers and
// order as Run, and counts what a run into target would pay for: the
// header and embedding calls the plugged-in writer and embedder would make,
// after what the previous snapshot and the journal of an interrupted run
// already hold. It writes nothing, takes no lock and calls no model (a
// header a model would write is counted, and its chunk's vector too,
// since the vector reads the header). The target is checked as a run
// checks it; a bucket's latest is not fetched (that takes the lock), so
// only --prev is reused from there.
func Plan(ctx context.Context, cfg Config, target artifacts.Target, opt Options) (*PlanResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := target.Check(cfg.Corpus); err != nil {
		return nil, err
	}
	opt, err := openModels(ctx, cfg, target, opt)
	if err != nil {
		return nil, err
	}
	r, err := newRun(cfg, opt)
	if err != nil {
		return nil, err
	}
	r.target = target
	start := time.Now()
	listing, err := corpus.ScanFiltered(cfg.Corpus, cfg.Filter)
	if err != nil {
		return nil, err
	}
	r.openPrevious(ctx)
	defer r.prev.Close()
	if r.journal, err = snapshot.ReadJournal(target.Journal()); err != nil {
		return nil, err
	}
	if r.journal != nil {
		defer r.journal.Close()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.errs.cancel = cancel
	p := &PlanResult{Diagnostics: append([]schema.Diagnostic{}, r.setup...)}
	if r.prev != nil {
		p.Previous = r.prev.Dir
	}
	var b planBatch
	r.scan(ctx, listing.Docs, func(res docResult) {
		if res.err != nil {
			r.errs.set(res.err)
			return
		}
		p.Diagnostics = append(p.Diagnostics, r.cfg.Diagnostics.mark(res.diags)...)
		switch {
		case res.rejected:
			p.Rejected++
		case res.doc.Draft:
		default:
			p.Documents++
			p.Bytes += int64(len(res.doc.Text))
			p.Chunks += len(res.chunks)
			for i := range res.chunks {
				r.planChunk(ctx, p, &b, res.doc, res.prev, &res.chunks[i])
			}
		}
	})
	if b.misses > 0 {
		p.EmbeddingCalls++
	}
	if err := r.errs.get(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

// planBatch follows the runner's batching: a batch is sent when it holds
// embed.batch_size texts to embed, or maxBatchRows rows.
type planBatch struct{ rows, misses int }

// planChunk counts what c would cost: its header (reused, offline, or a
// model call) and its vector (reused, or a text in a batch).
func (r *run) planChunk(ctx context.Context, p *PlanResult, b *planBatch, doc schema.Document, prev snapshot.Reuse, c *schema.Chunk) {
	known := true
	key := snapshot.HeaderKey(r.keys.Header, doc.Title, *c)
	if e, _, ok := r.reusedHeader(prev, key); ok {
		c.ContextHeader = e.Header
		p.HeadersReused++
	} else if models.Offline(r.headers) || c.Element == schema.ElementTableRow {
		en, err := r.headers.Header(ctx, doc, *c) // offline: no call (a model writer answers table rows itself)
		if err != nil {
			r.errs.set(err)
			return
		}
		c.ContextHeader = en.Header
	} else {
		p.HeaderCalls++
		known = false // the model's header is part of the text embedded
	}
	b.rows++
	if known {
		vkey := snapshot.VectorKey(r.keys.Vector, lexical.EmbedInput(*c))
		if _, ok := prev.Vectors[vkey]; ok {
			p.VectorsReused++
			known = true
		} else if _, ok := r.journalVector(vkey); ok {
			p.VectorsReused++
		} else {
			known = false
		}
	}
	if !known {
		b.misses++
	}
	if b.misses == r.cfg.Embed.BatchSize || b.rows == maxBatchRows {
		if b.misses > 0 {
			p.EmbeddingCalls++
		}
		*b = planBatch{}
	}
}
