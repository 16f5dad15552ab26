package stages

import (
	"context"
	"fmt"
	"time"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/estimate"
	"github.com/ocean-safety/ingest/stages/reuse"
	"github.com/ocean-safety/ingest/stages/settings"
)

// Plan reads, chunks and normalises the corpus with the same workers and
// order as Run, and counts what a run into target would pay for: the
// header and embedding calls the plugged-in writer and embedder would make,
// after what the previous snapshot and the journal of an interrupted run
// already hold. It writes nothing, takes no lock and calls no model (a
// header a model would write is counted, and its chunk's vector too,
// since the vector reads the header). The target is checked as a run
// checks it; a bucket's latest is not fetched (that takes the lock), so
// only --prev is reused from there. A corpus unchanged since the previous
// snapshot is planned as the run does it: read and hashed, not parsed
// (Result.Unchanged), so the plan of a quiet night costs that night; so is
// a document the run would take whole (see whole.go).
func Plan(ctx context.Context, cfg settings.Config, target publish.Target, opt Options) (*estimate.Result, error) {
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
	listing, err := corpus.ScanFiltered(cfg.Corpus, cfg.Filter, formats.All)
	if err != nil {
		return nil, err
	}
	r.cfg.Shard = r.cfg.Shard.Of(listing)
	if opt.Stamps != "" && !opt.Rehash { // read, never written: a plan changes nothing
		r.stampsIn = reuse.OpenStamps(opt.Stamps, cfg.Corpus, r.stampsKey())
		defer r.stampsIn.Close()
	}
	r.openPrevious(ctx)
	defer r.prev.Close()
	if r.prev != nil {
		// A plan counts the vectors it would reuse by their keys: the rows'
		// vectors, most of the previous snapshot's bytes, are not read.
		if err := r.prev.WithoutVectors(ctx); err != nil {
			return nil, fmt.Errorf("previous snapshot %s: %w", r.prev.Dir, err)
		}
	}
	r.takeDocuments()
	if r.journal, err = reuse.ReadJournal(target.Journal()); err != nil {
		return nil, err
	}
	if r.journal != nil {
		defer r.journal.Close()
	}
	if _, same, err := r.unchangedInput(ctx, listing.Docs, listing.Skipped); err != nil {
		return nil, err
	} else if same {
		return unchangedPlan(r, start), nil
	}
	r.reuse = reuse.NewResolver(r.keys, r.headers, r.embed, r.journal, r.cfg.RetryRejected)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.errs.cancel = cancel
	counter := estimate.NewCounter(r.headers, r.embed, r.reuse, r.cfg.Embed.BatchSize, maxWaitRows, r.cfg.Header.MaxChars)
	p := counter.Result()
	p.Diagnostics = append([]schema.Diagnostic{}, r.setup...)
	if r.prev != nil {
		p.Previous = r.prev.Dir
	}
	r.scan(ctx, listing.Docs, func(res docResult) {
		if res.err != nil {
			r.errs.set(res.err)
			return
		}
		p.Diagnostics = append(p.Diagnostics, r.cfg.Diagnostics.Mark(res.diags)...)
		switch {
		case res.rejected:
			p.Rejected++
		case res.doc.Draft:
		default:
			p.Documents++
			p.Bytes += int64(res.bytes)
			p.Chunks += len(res.chunks)
			if res.whole {
				counter.Whole(len(res.chunks))
			} else if err := counter.Document(ctx, res.doc, res.prev, res.chunks); err != nil {
				r.errs.set(err)
			}
		}
	})
	counter.Close()
	if err := r.errs.get(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

// unchangedPlan is the plan of a run that republishes the previous
// snapshot: its counts, every header and vector reused, no call.
func unchangedPlan(r *run, start time.Time) *estimate.Result {
	m := r.prev.Manifest
	p := estimate.NewCounter(r.headers, r.embed, nil, r.cfg.Embed.BatchSize, maxWaitRows, r.cfg.Header.MaxChars).Result()
	p.Unchanged, p.Previous = true, r.prev.Dir
	p.Documents, p.Rejected, p.Chunks = m.Counts.Documents, m.Counts.Rejected, m.Counts.Chunks
	p.HeadersReused, p.VectorsReused = m.Counts.Chunks, m.Counts.Chunks
	p.Diagnostics = append([]schema.Diagnostic{}, r.setup...)
	p.Seconds = time.Since(start).Seconds()
	return p
}
