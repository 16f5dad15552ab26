package pool

import (
	"hash/fnv"
	"time"
)

// slowFactor: an endpoint whose chat latency is this many times the best
// known one's is slow: new documents are not routed to it (those it holds
// stay: a latency measured on a busy machine swings, and a document moved
// pays its prefix again). One whose trial call was hedged (it took
// hedgeFactor times the best) takes no call at all: its documents move,
// until reexplore gives it a trial again.
const slowFactor = 3

// A document's chat calls go to one endpoint, chosen by rendezvous hashing:
// each healthy endpoint scores hash(document, endpoint address) and the
// highest takes the document. The choice depends only on the document and
// the set of healthy endpoints (not their order, nor what other documents
// did), so reruns and shards send a document where it went before, and an
// endpoint that leaves moves only its own documents.

func (p *Pool) Count() int { return len(p.eps) }

// Slots is what endpoint i says of its own parallelism (0: nothing).
func (p *Pool) Slots(i int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.eps[i].slots
}

// Route is the endpoint a document's chat calls go to now: the highest
// score among the healthy endpoints, else (all resting) the one whose rest
// ends first.
func (p *Pool) Route(key string) int {
	best, bestScore := -1, uint64(0)
	for i, e := range p.eps {
		if ok, _ := p.Healthy(i); !ok || p.slow(i) {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(key))
		h.Write([]byte{0})
		h.Write([]byte(e.srv.Where()))
		if s := h.Sum64(); best < 0 || s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.soonestLocked()
	}
	return best
}

// Healthy reports whether endpoint i takes chat calls now: in the run, not
// resting, its last trial not hedged; one at a time while it is on
// probation after a failure, or while its latency is not known and
// another's is (a trial, hedged by poolCall). When every endpoint rests,
// the one whose rest ends first takes one call, so the retrier's errors are
// real ones. A slow endpoint still takes the calls of its documents; route
// gives it no new one.
func (p *Pool) Healthy(i int) (bool, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	e := p.eps[i]
	switch {
	case e.out != "":
		return false, 0
	case now.Before(e.downUntil):
		if p.allRestLocked(now) && p.eps[p.soonestLocked()] == e {
			return true, 1
		}
		return false, 0
	case p.abandonedLocked(e, chatCall, now):
		return false, 0
	case e.fails > 0:
		return true, 1
	case !p.knownLocked(e, chatCall, now) && p.anyKnownLocked(chatCall, now):
		return true, 1
	}
	return true, 0
}

// slow reports whether endpoint i is slow for chat calls.
func (p *Pool) slow(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.slowLocked(p.eps[i], chatCall, p.now())
}

// abandonedLocked reports whether e's last trial of kind was hedged, and
// not long ago; p.mu is held.
func (p *Pool) abandonedLocked(e *endpoint, kind callKind, now time.Time) bool {
	return e.abandoned[kind] && now.Sub(e.sampled[kind]) < reexplore
}

// slowLocked reports whether e is slow for calls of kind; p.mu is held.
func (p *Pool) slowLocked(e *endpoint, kind callKind, now time.Time) bool {
	if e.lat[kind] == 0 || now.Sub(e.sampled[kind]) >= reexplore {
		return false // not known: it gets a trial
	}
	if e.abandoned[kind] {
		return true
	}
	best := time.Duration(0)
	for _, f := range p.eps {
		if f != e && f.out == "" && !now.Before(f.downUntil) && p.knownLocked(f, kind, now) && (best == 0 || f.lat[kind] < best) {
			best = f.lat[kind]
		}
	}
	return best > 0 && e.lat[kind] > slowFactor*best
}

// anyKnownLocked reports whether some endpoint in the run has a known
// latency for kind; p.mu is held.
func (p *Pool) anyKnownLocked(kind callKind, now time.Time) bool {
	for _, e := range p.eps {
		if e.out == "" && p.knownLocked(e, kind, now) {
			return true
		}
	}
	return false
}

// allRestLocked reports whether every endpoint in the run rests; p.mu is
// held.
func (p *Pool) allRestLocked(now time.Time) bool {
	for _, e := range p.eps {
		if e.out == "" && !now.Before(e.downUntil) {
			return false
		}
	}
	return true
}

// soonestLocked is the endpoint in the run whose rest ends first (the
// first when none rests); p.mu is held.
func (p *Pool) soonestLocked() int {
	best := -1
	for i, e := range p.eps {
		if e.out == "" && (best < 0 || e.downUntil.Before(p.eps[best].downUntil)) {
			best = i
		}
	}
	return max(best, 0)
}
