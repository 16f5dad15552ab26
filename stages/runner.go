package stages

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash"
	"runtime/debug"
	"sync"
	"time"

	"github.com/sourcegraph/conc/stream"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/dispatch"
)

// This file is the runner: the only code that starts goroutines. Three
// ordered streams, each bounding its goroutines: documents (parse, chunk,
// normalise; cfg.Workers), enrichment (headers and fields, one chunk a task,
// submitted in document order; a model writer's calls are admitted by the
// dispatcher (package dispatch): one server a document, each server's calls in
// flight as it serves them) and embedding batches (embedding calls, filled
// across documents (batch.go), and the batches of rows that wait for them
// and are written; cfg.EmbedConcurrency calls in flight). Each stream's callbacks feed the next, so parsing
// keeps the model server's slots full. Order is fixed at submit time — a
// stream runs its callbacks in the order tasks were submitted — so 1 and 8
// workers write the same bytes.
//
// Who owns what: a stream runs its callbacks one at a time, so state touched
// only by one stream's callbacks needs no lock. The docs stream's callbacks
// own the parsed count; the enrich stream's callbacks own the docTally (via
// collect) and the batcher being filled; the batch stream's callbacks own the
// rowTally and the Parquet writer. Workers touch only their task's own
// values and return them to their callback; an embedding call's vectors are
// handed to the batches waiting for it by closing its done channel. The tallies are merged after
// every stream has finished.

// enrichWindow and batchWindow are how many times its calls in flight a
// stream may hold, running, waiting for a call slot, or finished and
// waiting for its turn to hand over (see stream).
const (
	enrichWindow = 4
	batchWindow  = 2
	// dispatchWindow is enrichWindow for a writer whose calls the
	// dispatcher admits: a slot works through a document a chunk at a time,
	// and the chunks of the documents after it wait in the window (see
	// dispatch.Dispatcher); tasks waiting for a slot are goroutines parked in
	// acquire, and a chunk is a few kilobytes.
	dispatchWindow = 8
)

// slots bound the calls in flight to a model server.
type slots chan struct{}

// acquire waits for a slot; false when ctx ends first.
func (s slots) acquire(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case s <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s slots) release() { <-s }

// stream runs the corpus through the pipeline and returns what it counted.
func (r *run) stream(ctx context.Context, paths []string) tally {
	docs := stream.New().WithMaxGoroutines(r.cfg.Workers)
	// The streams' windows are wider than the calls allowed in flight: a
	// stream runs callbacks in order and holds a task's place until its
	// callback has run, so with a window of exactly llm_concurrency one slow
	// answer (a repair is two calls) would leave the others' slots idle
	// while finished tasks wait behind it. Tasks wait for a call slot
	// instead, and the server's slots stay full.
	window := r.cfg.LLMConcurrency * enrichWindow
	if r.lanes != nil {
		window = r.lanes.MaxWidth() * dispatchWindow
		r.dispatch = dispatch.New(r.lanes, window)
	}
	enrich := stream.New().WithMaxGoroutines(window)
	batches := stream.New().WithMaxGoroutines(r.cfg.EmbedConcurrency * batchWindow)
	r.llmSlots, r.embedSlots = make(slots, max(r.cfg.LLMConcurrency, 1)), make(slots, r.cfg.EmbedConcurrency)
	dt := newDocTally(r.setup, r.diags)
	rt := rowTally{sizes: r.sizeTally()}
	var b batcher // owned by the enrich stream's callbacks, then by this goroutine
	parsed := 0
	send := func() {
		call, held := b.send()
		if call != nil {
			r.submitCall(ctx, batches, call, &rt)
		}
		for _, h := range held {
			r.submitBatch(batches, h, &rt)
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
			r.errs.set(err)
			break
		}
		docs.Go(r.guard("document "+p, func() stream.Callback {
			res := r.processDoc(ctx, p, ru)
			return func() {
				parsed++
				r.rep.Progress(StageParsed, parsed, len(paths))
				r.submitEnrich(ctx, enrich, &res, func() {
					for i, c := range r.collect(&dt, res, len(paths)) {
						from := int64(-1) // a row made again
						if res.whole {
							from = res.prev.From + int64(i)
						}
						if r.addToBatch(&dt, &b, c, res.prev, from) {
							send()
						}
					}
				})
			}
		}))
	}
	docs.Wait()
	enrich.Wait()
	send()
	batches.Wait()
	return tally{docTally: dt, rows: rt}
}

// scan runs the per-document stages with the documents stream alone and
// hands each result, with what the previous snapshot offers for it, in
// corpus order, to each: the plan's path.
func (r *run) scan(ctx context.Context, paths []string, each func(docResult)) {
	docs := stream.New().WithMaxGoroutines(r.cfg.Workers)
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		ru, err := r.reuseFor(p) // in corpus order, as the run reads it
		if err != nil {
			r.errs.set(err)
			break
		}
		docs.Go(r.guard("document "+p, func() stream.Callback {
			res := r.processDoc(ctx, p, ru)
			return func() { each(res) }
		}))
	}
	docs.Wait()
}

// submitEnrich enriches a document's chunks, one task per chunk submitted
// in order (a model server gets a document's chunks in order, and no slot
// idles waiting for a long document to finish), and calls done, on the
// enrich stream's callback goroutine, once all of them are.
func (r *run) submitEnrich(ctx context.Context, enrich *stream.Stream, res *docResult, done func()) {
	n := len(res.chunks)
	if res.err != nil || res.rejected || n == 0 || res.enriched {
		enrich.Go(func() stream.Callback { return done })
		return
	}
	outs := make([]enriched, n)
	slot := r.callSlot(res.path, n)
	for i := range n {
		enrich.Go(r.guard("header "+res.chunks[i].Key(), func() stream.Callback {
			acquire, end := slot(i)
			defer end()
			outs[i] = r.enrich(ctx, res.doc, res.prev, &res.chunks[i], acquire)
			if outs[i].err != nil {
				r.errs.set(fmt.Errorf("header %s: %w", res.chunks[i].Key(), outs[i].err)) // stop the other calls now
			}
			return func() {
				if i == n-1 { // callbacks run in order: every chunk is done
					res.mergeEnriched(outs)
					done()
				}
			}
		}))
	}
}

// callSlot is how each of the n chunks of the document at path waits for
// its model call: admitted by the dispatcher to the document's server, or
// one of llm_concurrency slots for a writer with no servers to route
// between. For each chunk it gives acquire, which returns the context the
// call is made with and the func that ends it, and end, which the chunk's
// task calls once it is done: a chunk never admitted (its header reused,
// or the run ending) is skipped, so the dispatcher knows what is to come.
func (r *run) callSlot(path string, n int) func(chunk int) (acquire func(context.Context) (context.Context, func(), error), end func()) {
	if r.dispatch == nil {
		acquire := func(ctx context.Context) (context.Context, func(), error) {
			if !r.llmSlots.acquire(ctx) {
				return ctx, nil, ctx.Err()
			}
			return ctx, r.llmSlots.release, nil
		}
		return func(int) (func(context.Context) (context.Context, func(), error), func()) { return acquire, func() {} }
	}
	doc := r.dispatch.Document(path, n)
	return func(chunk int) (func(context.Context) (context.Context, func(), error), func()) {
		admitted := false
		acquire := func(ctx context.Context) (context.Context, func(), error) {
			s, ok := r.dispatch.Acquire(ctx, doc, chunk)
			if !ok {
				return ctx, nil, ctx.Err()
			}
			admitted = true
			return models.ForDocument(ctx, path, s), func() { r.dispatch.Release(doc, s) }, nil
		}
		return acquire, func() {
			if !admitted {
				r.dispatch.Skip(doc, chunk)
			}
		}
	}
}

// submitCall sends c to the embedder on a worker. It is submitted before
// the batches whose rows wait for it, so it has started by the time they
// wait: a stream starts its tasks in the order they were submitted.
func (r *run) submitCall(ctx context.Context, batches *stream.Stream, c *embedCall, rt *rowTally) {
	batches.Go(r.guard("embed batch at "+c.first, func() stream.Callback {
		defer close(c.done) // also when the call panics: its batches fail instead of waiting
		calls, err := 0, ctx.Err()
		t := time.Now()
		if r.embedSlots.acquire(ctx) {
			calls, err = r.embedCall(ctx, c)
			r.embedSlots.release()
		}
		c.err = err
		if err != nil {
			r.errs.set(fmt.Errorf("embed batch at %s: %w", c.first, err)) // stop the other calls now
		}
		took := time.Since(t)
		return func() {
			rt.embedCalls += calls // answered calls: what a resumed run need not repeat
			rt.embed.Seconds += took.Seconds()
		}
	}))
}

// submitBatch writes a batch's rows in order once the calls that embed
// its missing vectors have answered.
func (r *run) submitBatch(batches *stream.Stream, b batch, rt *rowTally) {
	batches.Go(r.guard("embed batch at "+b.rows[0].Key(), func() stream.Callback {
		ok := b.fill()
		return func() {
			if !ok || r.errs.get() != nil {
				return
			}
			r.write(rt, b)
		}
	}))
}

func (r *run) write(rt *rowTally, b batch) {
	t := time.Now()
	rows := b.rows
	for i := 0; i < len(rows); {
		n, err := 1, error(nil)
		if b.from[i] < 0 {
			err = r.writer.Write(rows[i])
		} else { // the previous snapshot's rows, as it holds them: the writer may copy their row group
			for i+n < len(rows) && b.from[i+n] == b.from[i]+int64(n) && rows[i+n].DocPath == rows[i].DocPath { // a document at a time: row groups end between documents
				n++
			}
			err = r.writer.WriteFrom(rows[i:i+n], r.prev.File(), b.from[i])
		}
		if err != nil {
			r.errs.set(err)
			return
		}
		for _, c := range rows[i : i+n] {
			rt.counts.Add(c)
			rt.sizes.Add(c)
		}
		i += n
	}
	rt.embed.Items += len(rows)
	rt.write.Items += len(rows)
	rt.write.Seconds += time.Since(t).Seconds()
	r.rep.Progress(StageWritten, r.writer.Rows(), -1)
}

// hashInputs reads every listed file, in parallel, into an input
// fingerprint (fed in corpus order): the check that a corpus is unchanged.
// A file whose stamp is the one a run before recorded is not read
// (stampsIn), and every file's stamp is recorded (stampsOut). Each file's
// input hash goes to each, in corpus order, when it is not nil.
func (r *run) hashInputs(ctx context.Context, paths []string, each func(i int, sum string)) (hash.Hash, error) {
	h := sha256.New()
	s := stream.New().WithMaxGoroutines(r.cfg.Workers)
	for i, p := range paths {
		if ctx.Err() != nil {
			break
		}
		known, sum := r.stampsIn.For(p)
		s.Go(r.guard("read "+p, func() stream.Callback {
			sum, stamp := r.parser.InputStamped(p, known, sum) // an unreadable file as Parse gives it
			return func() {
				InputLine(h, p, sum)
				r.stampsOut.Add(p, stamp, sum)
				if each != nil {
					each(i, sum)
				}
			}
		}))
	}
	s.Wait()
	first := r.errs.get()
	if first == nil {
		first = ctx.Err()
	}
	r.stampsAll = first == nil
	return h, first
}

// guard turns a panic in a task or its callback into the run's error, so a
// bug in one document fails the run cleanly (nothing published, the
// journal kept) instead of crashing the process.
func (r *run) guard(what string, task func() stream.Callback) func() stream.Callback {
	return func() (cb stream.Callback) {
		defer func() {
			if p := recover(); p != nil {
				r.errs.set(fmt.Errorf("%s: %w: %v\n%s", what, ErrPanic, p, debug.Stack()))
				cb = func() {}
			}
		}()
		inner := task()
		return func() {
			defer func() {
				if p := recover(); p != nil {
					r.errs.set(fmt.Errorf("%s: %w: %v\n%s", what, ErrPanic, p, debug.Stack()))
				}
			}()
			inner()
		}
	}
}

// firstError is a run's first error; setting it cancels the run's work.
// It is safe from any goroutine.
type firstError struct {
	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
}

func (f *firstError) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
		if f.cancel != nil {
			f.cancel()
		}
	}
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
