package stages

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/conc/stream"

	"github.com/ocean-safety/ingest/schema"
)

// This file is the runner: the only code that starts goroutines. Three
// ordered streams, each bounding its goroutines: documents (parse, chunk,
// normalise; cfg.Workers), enrichment (headers and fields, one chunk a task,
// submitted in document order so a model server's slots keep the document's
// prompt cached; cfg.LLMConcurrency) and embedding batches (embed and write;
// cfg.EmbedConcurrency). Each stream's callbacks feed the next, so parsing
// keeps the model server's slots full. Order is fixed at submit time — a
// stream runs its callbacks in the order tasks were submitted — so 1 and 8
// workers write the same bytes.

// maxBatchRows bounds the rows a batch holds while it waits for
// embed.batch_size chunks that need a call: in a re-run most vectors are
// reused, and the batch must not grow with the corpus.
const maxBatchRows = 256

// stream runs the corpus through the pipeline.
func (r *run) stream(ctx context.Context, paths []string) {
	docs := stream.New().WithMaxGoroutines(r.cfg.Workers)
	enrich := stream.New().WithMaxGoroutines(r.cfg.LLMConcurrency)
	batches := stream.New().WithMaxGoroutines(r.cfg.EmbedConcurrency)
	var b batch
	parsed := 0 // touched only by the docs stream's callbacks
	flush := func() {
		if len(b.rows) > 0 {
			r.submitBatch(ctx, batches, b)
			b = batch{}
		}
	}
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		// The previous snapshot is read here, in corpus order, one document
		// ahead of the workers.
		ru, err := r.reuseFor(p)
		if err != nil {
			r.fail(err)
			break
		}
		docs.Go(func() stream.Callback {
			res := r.processDoc(ctx, p, ru)
			return func() {
				parsed++
				r.rep.Progress(StageParsed, parsed, len(paths))
				r.submitEnrich(ctx, enrich, &res, func() {
					for _, c := range r.collect(res, len(paths)) {
						r.addToBatch(&b, c, ru)
						if b.misses == r.cfg.Embed.BatchSize || len(b.rows) == maxBatchRows {
							flush()
						}
					}
				})
			}
		})
	}
	docs.Wait()
	enrich.Wait()
	flush()
	batches.Wait()
}

// submitEnrich enriches a document's chunks, one task per chunk submitted
// in order (a model server gets a document's chunks in order, and no slot
// idles waiting for a long document to finish), and calls done, on the
// enrich stream's callback goroutine, once all of them are.
func (r *run) submitEnrich(ctx context.Context, enrich *stream.Stream, res *docResult, done func()) {
	n := len(res.chunks)
	if res.err != nil || res.rejected || r.plan != nil || n == 0 {
		enrich.Go(func() stream.Callback { return done })
		return
	}
	outs := make([]enriched, n)
	for i := range n {
		enrich.Go(func() stream.Callback {
			if ctx.Err() == nil {
				outs[i] = r.enrich(ctx, res.doc, res.prev, &res.chunks[i])
			} else {
				outs[i].err = ctx.Err()
			}
			if outs[i].err != nil {
				r.fail(fmt.Errorf("header %s: %w", res.chunks[i].Key(), outs[i].err)) // stop the other calls now
			}
			return func() {
				if i == n-1 { // callbacks run in order: every chunk is done
					res.mergeEnriched(outs)
					done()
				}
			}
		})
	}
}

// batch is a run of chunks in output order; those without a vector are
// embedded in one call (at most embed.batch_size of them).
type batch struct {
	rows   []schema.Chunk
	inputs []string // embed input of each row whose vector is missing ("" when present)
	keys   []string
	misses int
}

// addToBatch appends c, with its vector when the previous snapshot or the
// journal has it.
func (r *run) addToBatch(b *batch, c schema.Chunk, ru reuse) {
	input := EmbedInput(c)
	key := vectorKey(r.keys.Vector, input)
	if v, ok := ru.vectors[key]; ok {
		c.Embedding = v
		r.calls.vectorsReused.Add(1)
		input = ""
	} else if v, ok := r.journalVector(key); ok {
		c.Embedding = v
		r.calls.vectorsReused.Add(1)
		r.calls.fromJournal.Add(1)
		input = ""
	} else {
		b.misses++
	}
	b.rows = append(b.rows, c)
	b.inputs = append(b.inputs, input)
	b.keys = append(b.keys, key)
}

// submitBatch embeds a batch's missing vectors on a worker and writes its
// rows in order.
func (r *run) submitBatch(ctx context.Context, batches *stream.Stream, b batch) {
	batches.Go(func() stream.Callback {
		t := time.Now()
		err := r.embedMissing(ctx, b)
		took := time.Since(t)
		return func() {
			if err != nil {
				r.fail(fmt.Errorf("embed batch at %s: %w", b.rows[0].Key(), err))
				return
			}
			if r.failed() != nil {
				return
			}
			r.write(b.rows, took)
		}
	})
}

func (r *run) embedMissing(ctx context.Context, b batch) error {
	var texts []string
	var at []int
	for i, in := range b.inputs {
		if in != "" {
			texts = append(texts, in)
			at = append(at, i)
		}
	}
	if len(texts) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err // the run is stopping: no new call
	}
	vecs, err := r.embed.Embed(ctx, texts)
	if err != nil {
		return err
	}
	r.calls.embedCalls.Add(1) // calls that answered: what a resumed run need not repeat
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedder %s returned %d vectors for %d inputs", r.embed.Name(), len(vecs), len(texts))
	}
	for j, i := range at {
		if len(vecs[j]) != r.embed.Dims() {
			return fmt.Errorf("embedder %s returned %d dimensions, want %d", r.embed.Name(), len(vecs[j]), r.embed.Dims())
		}
		b.rows[i].Embedding = vecs[j]
		if err := r.journalPutVector(b.keys[i], vecs[j]); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) write(rows []schema.Chunk, embedTook time.Duration) {
	t := time.Now()
	for _, c := range rows {
		if err := r.writer.Write(c); err != nil {
			r.fail(err)
			return
		}
		r.counts.Add(c)
	}
	r.statsMu.Lock()
	r.stats[stageEmbed].Items += len(rows)
	r.stats[stageEmbed].Seconds += embedTook.Seconds()
	r.stats[stageWrite].Items += len(rows)
	r.stats[stageWrite].Seconds += time.Since(t).Seconds()
	r.statsMu.Unlock()
	r.rep.Progress(StageWritten, r.writer.Rows(), -1)
}

// callCounts are counted from workers, hence atomic.
type callCounts struct {
	headerCalls, embedCalls, headersReused, vectorsReused, fromJournal atomic.Int64
}

// hashInputs reads every corpus file, in parallel, into an input
// fingerprint (fed in corpus order): the check that a corpus is unchanged.
func (r *run) hashInputs(ctx context.Context, paths []string) (hash.Hash, error) {
	h := sha256.New()
	s := stream.New().WithMaxGoroutines(r.cfg.Workers)
	var first error
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		s.Go(func() stream.Callback {
			raw, err := os.ReadFile(filepath.Join(r.cfg.Corpus, filepath.FromSlash(p)))
			sum := rawDigest(raw)
			return func() {
				if err != nil && first == nil {
					first = err
				}
				inputLine(h, p, sum)
			}
		})
	}
	s.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return h, first
}
