package push

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/sourcegraph/conc/pool"
)

// runner sends batches with bounded work outstanding: at most Tasks
// batches between their POST and their end (in flight or a task being
// polled), and, through the client, at most InFlight HTTP requests. Its
// goroutines are the package's only ones (like stages/runner.go is the
// pipeline's); order does not matter to the destination, and each batch's
// outcome goes to the sink under one lock, so the journal, the audit and
// the tallies have one owner.
type runner struct {
	c    *client
	p    *pool.ContextPool
	mu   sync.Mutex
	sink sink
	// forgive takes any refusal of an earlier push's task for a lost task
	// (--full: a push that sends everything again must not stop at a task
	// it would not need).
	forgive bool
}

// maxLost bounds how often one batch is sent again because the
// destination lost its task: a receiver that loses every task is an
// error, not a loop.
const maxLost = 3

// sink is told each batch's outcome, one call at a time.
type sink interface {
	accepted(b *batch, task string, n counts) error // 202: polled next
	done(b *batch, n counts) error                  // acknowledged
	failed(b *batch, n counts) error                // its task failed: it may be sent again
	lost(b *batch, n counts) error                  // its task is unknown to the destination: sent again
	ended(b *batch, n counts)                       // any other error: only its counts
}

// newRunner starts a runner; a batch's error cancels the others, and wait
// returns the first.
func newRunner(ctx context.Context, c *client, s sink) *runner {
	return &runner{c: c, sink: s, p: pool.New().WithContext(ctx).WithMaxGoroutines(c.set.Tasks).WithCancelOnError().WithFirstError()}
}

// submit sends b, waiting while Tasks batches are outstanding.
func (r *runner) submit(b *batch) { r.p.Go(func(ctx context.Context) error { return r.run(ctx, b) }) }

// wait waits for every batch submitted and returns the first error.
func (r *runner) wait() error { return r.p.Wait() }

// run sends b and polls its task until it is done, sending it again when
// the destination loses the task. A batch of an earlier push (its task
// only, no body) whose task is lost ends there: the push's pass over the
// snapshot sends its documents again.
func (r *runner) run(ctx context.Context, b *batch) error {
	for lost := 0; ; lost++ {
		n, err := r.once(ctx, b)
		var he *httpError
		if errors.Is(err, errTaskLost) || r.forgive && b.body.gz == nil && (errors.As(err, &he) || errors.Is(err, errTaskFailed)) {
			if err := r.locked(func() error { return r.sink.lost(b, n) }); err != nil {
				return err
			}
			if b.body.gz == nil {
				return nil
			}
			if lost < maxLost {
				b.task = ""
				continue
			}
			return fmt.Errorf("%w (sent %d times)", err, lost+1)
		}
		if errors.Is(err, errTaskFailed) {
			return errors.Join(err, r.locked(func() error { return r.sink.failed(b, n) }))
		}
		if err != nil {
			r.locked(func() error { r.sink.ended(b, n); return nil })
			return err
		}
		return r.locked(func() error { return r.sink.done(b, n) })
	}
}

// once posts b (unless it has a task already) and polls its task.
func (r *runner) once(ctx context.Context, b *batch) (counts, error) {
	var n counts
	var task *url.URL
	var err error
	if b.task != "" {
		task, err = url.Parse(b.task)
	} else if task, err = r.c.post(ctx, b, &n); err == nil && task != nil {
		err = r.locked(func() error { return r.sink.accepted(b, task.String(), n) })
		n = counts{}
	}
	if err == nil && task != nil {
		err = r.c.poll(ctx, b, task, &n)
	}
	return n, err
}

func (r *runner) locked(fn func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fn()
}
