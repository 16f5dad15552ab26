package stages

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
	"github.com/ocean-safety/ingest/text/lexical"
)

// This file is how the rows on their way to the writer are cut into
// batches and their missing vectors into embedding calls; the runner
// submits both. No goroutine starts here.
//
// Rows are written in order, so a row must wait for the vectors of the rows
// before it. A call is filled across documents: it is sent when it holds
// batchMisses texts, when its first text has waited maxWaitRows rows, or at
// the end of the input; until then the rows after its first text are held
// here. In a re-run most vectors are reused, and a document's few new
// texts would otherwise make a call of their own.

const (
	// maxBatchRows bounds the rows of a batch, the unit the batch stream
	// writes: a batch must not grow with the corpus.
	maxBatchRows = 256
	// maxWaitRows is how many rows a call's first text waits for the call
	// to fill: the bounded wait before a partial call, counted in rows,
	// not time, so the calls are the same on every run. Held rows are
	// about 6 KB each with a 1024-wide vector, so 4096 hold about 25 MB;
	// a re-run that changes one chunk in 400 still fills its calls.
	maxWaitRows = 4096
)

// embedCall is one call to the embedder: texts from any number of batches.
// Its submitter fills it; its task sets vecs and err and closes done, after
// which the batches waiting for it read them.
type embedCall struct {
	texts, keys []string
	first       string // key of the row of the first text, to name the call
	done        chan struct{}
	vecs        [][]float32
	err         error
}

// need is a row of a batch whose vector is text at of call.
type need struct {
	row, at int
	call    *embedCall
}

// batch is a run of rows in output order and the calls that embed those
// of them without a vector.
type batch struct {
	rows  []schema.Chunk
	from  []int64 // each row's row in the previous snapshot, when it is that row (taken whole); -1 otherwise
	needs []need
}

// fill waits for the batch's calls and gives its rows their vectors; false
// when a call failed (the run's error says why).
func (b batch) fill() bool {
	for _, n := range b.needs {
		<-n.call.done // submitted before the batch: it has started, and ends
		if n.call.err != nil || n.at >= len(n.call.vecs) {
			return false
		}
		b.rows[n.row].Embedding = n.call.vecs[n.at]
	}
	return true
}

// batcher holds the rows waiting for the open call to fill.
type batcher struct {
	cur    batch
	held   []batch // full batches before cur, all waiting for open
	open   *embedCall
	waited int // rows since open's first text, that one included
}

// addToBatch appends c, with its vector when the previous snapshot or the
// journal has it (a row of a document taken whole has its own: row from of
// the previous snapshot, -1 for a row made again), and says whether the
// open call and the rows it holds are to be sent now.
func (r *run) addToBatch(dt *docTally, b *batcher, c schema.Chunk, ru reuse.Offer, from int64) bool {
	if from >= 0 {
		dt.calls.VectorsReused++
	} else {
		r.vector(dt, b, &c, ru)
	}
	b.cur.rows, b.cur.from = append(b.cur.rows, c), append(b.cur.from, from)
	if b.open == nil {
		return len(b.cur.rows) == maxBatchRows
	}
	b.waited++
	if len(b.open.texts) == r.batchMisses || b.waited == maxWaitRows {
		return true
	}
	if len(b.cur.rows) == maxBatchRows {
		b.held = append(b.held, b.cur)
		b.cur = batch{}
	}
	return false
}

// vector gives c the vector the previous snapshot or the journal has for
// it, or a place in the open call, which it opens if none is.
func (r *run) vector(dt *docTally, b *batcher, c *schema.Chunk, ru reuse.Offer) {
	input := lexical.EmbedInput(*c)
	key, v, from := r.reuse.Vector(ru, input)
	if from == reuse.Miss {
		if b.open == nil {
			b.open = &embedCall{first: c.Key(), done: make(chan struct{})}
		}
		b.cur.needs = append(b.cur.needs, need{row: len(b.cur.rows), at: len(b.open.texts), call: b.open})
		b.open.texts = append(b.open.texts, input)
		b.open.keys = append(b.open.keys, key)
		return
	}
	c.Embedding = v
	dt.calls.VectorsReused++
	if from == reuse.FromJournal {
		dt.calls.FromJournal++
	}
}

// send returns the open call (nil when there is none) and the batches to
// write after it, in order, and empties b.
func (b *batcher) send() (*embedCall, []batch) {
	out := b.held
	if len(b.cur.rows) > 0 {
		out = append(out, b.cur)
	}
	call := b.open
	*b = batcher{}
	return call, out
}

// embedCall embeds c's texts, keeps their vectors in the journal, and
// returns the calls that answered.
func (r *run) embedCall(ctx context.Context, c *embedCall) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err // the run is stopping: no new call
	}
	vecs, err := r.embed.Embed(ctx, c.texts)
	if err != nil {
		return 0, err
	}
	// Calls are counted in embed.batch_size texts, as a model server gets
	// them, also where the runner hands the embedder more at once.
	calls := (len(c.texts) + r.cfg.Embed.BatchSize - 1) / r.cfg.Embed.BatchSize
	if len(vecs) != len(c.texts) {
		return calls, fmt.Errorf("embedder %s returned %d vectors for %d inputs", r.embed.Name(), len(vecs), len(c.texts))
	}
	for i, v := range vecs {
		if len(v) != r.embed.Dims() {
			return calls, fmt.Errorf("embedder %s returned %d dimensions, want %d", r.embed.Name(), len(v), r.embed.Dims())
		}
		if err := r.reuse.PutVector(c.keys[i], v); err != nil {
			return calls, err
		}
	}
	c.vecs = vecs
	return calls, nil
}
