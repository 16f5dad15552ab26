package pool

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/models/server"
)

// callKind separates the latencies of chat and embedding calls, which one
// pool may serve both of.
type callKind int

const (
	chatCall callKind = iota
	embedCall
)

// Latency-aware choice, each setting with its reason.
const (
	// latencyWeight is a new answer's weight in an endpoint's moving
	// average: a cold first call (the server loading the model) fades out
	// in a few calls.
	latencyWeight = 0.3
	// reexplore is how long an endpoint's latency stays known without a new
	// answer: then it gets a trial call again, so a server that was slow
	// for a while (loading, busy with another job) is not shunned all run.
	reexplore = 30 * time.Second
	// hedgeFactor: a trial call that has taken this many times the best
	// known latency is sent to the fastest endpoint too, and the first
	// answer is used, so a slow server's trial costs the run about three
	// fast calls' time instead of one slow call's (the runner's ordered
	// streams wait for it). A trial given up on this way is tried again
	// after reexplore.
	hedgeFactor = 2
	// hedgeCheck is how often a trial started before any latency was known
	// looks again for one to hedge against.
	hedgeCheck = 10 * time.Millisecond
	// minHedgeWait is the shortest wait before a trial is hedged: below it
	// the wait is the client's own load (a busy machine), not the
	// server's, and a hedge would take a healthy server out.
	minHedgeWait = 100 * time.Millisecond
)

// choose takes the endpoint a call of kind should go to, and counts it in
// flight. An endpoint whose latency is known costs its latency times its
// calls in flight plus one (when it would answer this call); one whose
// latency is unknown (new, or not measured for reexplore) gets one trial
// call at a time, hedged by poolCall. With no latency known yet (a run's
// first calls) the least loaded takes it, as a trial. Endpoints resting
// are passed over (one on probation takes one call at a time), or, when
// all rest, the one whose rest ends first takes it. nil when none is left
// in the run. An endpoint prefer names (≥ 0) takes the call when it is in
// the run and not resting, as a trial when its latency is not known.
func (p *Pool) choose(kind callKind, prefer int) (*endpoint, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if prefer >= 0 && prefer < len(p.eps) {
		if e := p.eps[prefer]; e.out == "" && !now.Before(e.downUntil) && (e.fails == 0 || e.inflight == 0) {
			e.inflight++
			e.calls++
			return e, !p.knownLocked(e, kind, now)
		}
	}
	var best, trial, least, soonest *endpoint
	var bestCost time.Duration
	n := len(p.eps)
	for i := range n {
		e := p.eps[(p.next+i)%n]
		if e.out != "" {
			continue
		}
		if now.Before(e.downUntil) || e.fails > 0 && e.inflight > 0 {
			if soonest == nil || e.downUntil.Before(soonest.downUntil) {
				soonest = e
			}
			continue
		}
		if least == nil || e.inflight < least.inflight {
			least = e
		}
		if !p.knownLocked(e, kind, now) {
			// One trial at a time; after a trial that was given up on, the
			// next only once reexplore has passed.
			if trial == nil && e.inflight == 0 && (!e.abandoned[kind] || now.Sub(e.sampled[kind]) >= reexplore) {
				trial = e
			}
			continue
		}
		if cost := e.lat[kind] * time.Duration(e.inflight+1); best == nil || cost < bestCost {
			best, bestCost = e, cost
		}
	}
	p.next = (p.next + 1) % n
	var e *endpoint
	isTrial := false
	switch {
	case trial != nil:
		e, isTrial = trial, true
	case best != nil:
		e = best
	case least != nil:
		e, isTrial = least, true
	default:
		e = soonest
	}
	if e != nil {
		e.inflight++
		e.calls++
	}
	return e, isTrial
}

func (p *Pool) knownLocked(e *endpoint, kind callKind, now time.Time) bool {
	return e.lat[kind] > 0 && !e.abandoned[kind] && now.Sub(e.sampled[kind]) < reexplore
}

// abandon records a trial whose answer was not waited for: the endpoint
// took longer than took, and gets no call of kind but another trial after
// reexplore (its call is cancelled with the attempt, so its latency stays
// unknown).
func (p *Pool) abandon(e *endpoint, kind callKind, took time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	e.lat[kind] = max(e.lat[kind], took)
	e.abandoned[kind], e.sampled[kind] = true, p.now()
}

// measured records an answer's latency.
func (p *Pool) measured(e *endpoint, kind callKind, took time.Duration) {
	took = max(took, time.Microsecond) // 0 means unknown
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.lat[kind] == 0 {
		e.lat[kind] = took
	} else {
		e.lat[kind] += time.Duration(latencyWeight * float64(took-e.lat[kind]))
	}
	e.sampled[kind], e.abandoned[kind] = p.now(), false
}

// hedgeTarget is the endpoint with the best known latency other than e,
// counted in flight, and how long e's trial may take before it is used; nil
// when there is none yet. With take false it only reports the wait.
func (p *Pool) hedgeTarget(e *endpoint, kind callKind, take bool) (*endpoint, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var best *endpoint
	for _, f := range p.eps {
		if f == e || f.out != "" || now.Before(f.downUntil) || f.fails > 0 || !p.knownLocked(f, kind, now) || f.hedging > 0 {
			continue // one hedge at a time on an endpoint: trials on several servers at once must not pile up on the fastest
		}
		if best == nil || f.lat[kind]*time.Duration(f.inflight+1) < best.lat[kind]*time.Duration(best.inflight+1) {
			best = f
		}
	}
	if best == nil {
		return nil, 0
	}
	if take {
		best.inflight++
		best.calls++
		best.hedges++
		best.hedging++
	}
	return best, max(hedgeFactor*best.lat[kind], minHedgeWait)
}

type reply[T any] struct {
	e    *endpoint
	out  T
	err  error
	seen *server.AttemptInfo // what the transport saw of this call's response (a trial's and a hedge's are apart)
}

// poolCall makes one call of kind on the endpoint pick chooses. A trial
// (an endpoint whose latency is not known) runs on its own goroutine, and
// when it has taken hedgeFactor times the best known latency the same call
// goes to that best endpoint too; the first success is the answer, and the
// other call's answer is dropped when it comes (each still measures its
// endpoint). This and the start-up ping are the only goroutines outside the
// runner: the runner cannot know which server a call went to.
func poolCall[T any](p *Pool, ctx context.Context, model string, kind callKind, call func(context.Context, *endpoint) (T, error)) (T, error) {
	e, trial, err := p.pick(ctx, model, kind)
	if err != nil {
		var zero T
		return zero, err
	}
	run := func(ctx context.Context, e *endpoint) reply[T] {
		start := time.Now()
		out, err := call(ctx, e)
		if err == nil {
			p.measured(e, kind, time.Since(start))
		}
		p.release(e, err)
		return reply[T]{e: e, out: out, err: p.named(e, err)}
	}
	if !trial {
		a := run(ctx, e)
		return a.out, a.err
	}
	// Each of the two calls records its response apart; the answer's is
	// the attempt's, for the retrier (a 429's Retry-After).
	seen, _ := ctx.Value(server.AttemptKey{}).(*server.AttemptInfo)
	apart := func(e *endpoint) reply[T] {
		actx, info := server.WithAttempt(ctx)
		a := run(actx, e)
		a.seen = info
		return a
	}
	use := func(a reply[T]) (T, error) {
		if seen != nil {
			*seen = *a.seen
		}
		return a.out, a.err
	}
	answers := make(chan reply[T], 2) // buffered: the slower call's goroutine never blocks
	go func() { answers <- apart(e) }()
	start := time.Now()
	for {
		_, wait := p.hedgeTarget(e, kind, false)
		next := hedgeCheck
		if wait > 0 {
			next = max(wait-time.Since(start), 0)
		}
		timer := time.NewTimer(next)
		select {
		case a := <-answers:
			timer.Stop()
			return use(a)
		case <-ctx.Done():
			timer.Stop()
			return use(<-answers) // the call sees the same cancellation

		case <-timer.C:
		}
		if wait == 0 || time.Since(start) < wait {
			continue
		}
		f, _ := p.hedgeTarget(e, kind, true)
		if f == nil {
			continue
		}
		go func() {
			a := apart(f)
			p.mu.Lock()
			f.hedging--
			p.mu.Unlock()
			answers <- a
		}()
		a := <-answers
		if a.err != nil { // the first to answer failed: the other may not
			a = <-answers
		}
		if a.e == f {
			p.abandon(e, kind, time.Since(start))
		}
		return use(a)
	}
}
