package remote

import (
	"sync"
	"time"

	"github.com/ocean-safety/ingest/models/server"
)

// How a server's width is learned, each setting with its reason.
const (
	// roundCalls is the fewest answers a width is judged on (and at least
	// one per call in flight): fewer are noise.
	roundCalls = 4
	// gainFloor is the throughput a doubled width must bring to be kept:
	// 1.3 times the last (a server with room gives about 2; one without,
	// 1 and a longer wait).
	gainFloor = 1.3
	// queueRatio: answers that take this many times the time the server
	// says it worked on them are waiting in its queue: no doubling then,
	// and the width comes down to what the server serves. A round's first
	// answers after a doubling past the slots wait half as long as the
	// later ones (those of the first slots' worth do not wait at all).
	queueRatio = 1.3
	// queueRatioUntold is queueRatio for a server that does not say what
	// its calls took: answers are compared with the fastest, and calls
	// differ that much in length without waiting.
	queueRatioUntold = 1.5
	// roomyRatio: answers this close to the time the server worked on
	// them waited for nothing: the server has a slot a call, and gets a
	// document a slot (Documents). Between it and queueRatio a round says
	// too little to split documents over.
	roomyRatio = 1.15
	// roomyServed: a round that says the server has a slot a call must
	// also have had calls worked on at once, this many on average by the
	// server's account (a one-slot server works on one at most).
	roomyServed = 1.25
	// busyShare is how much of a round the width must have been filled
	// for the round to say anything of the server (not of a run that had
	// too few calls to send).
	busyShare = 0.8
)

// Where a server's width comes from, as the report says.
const (
	WidthLearned = "learned" // measured at run time
	WidthServer  = "server"  // what the server says of itself (llama-server's /props)
	WidthFixed   = "fixed"   // llm_concurrency, given by the user
)

// limiter learns one server's useful calls in flight: it starts at the
// configured width, doubles it while a round at the new width brings
// gainFloor times the throughput of the last (throughput rises and the
// wait does not), and settles at the last width that did. A width at which
// answers wait in the server's queue (queueRatio times the time the server
// says it worked on them, or the fastest answer when it does not say) is
// not doubled: it comes down to the slots the wait shows. No call is kept
// waiting on purpose: a slot's prompt cache holds the document it answered
// last, and a waiting call takes whichever slot frees first (see stages'
// dispatcher). A round counts only answers to calls sent at its width, and
// only when the width was kept full (busyShare): a run with little to send
// says nothing of the server. Safe for concurrent use.
type limiter struct {
	mu       sync.Mutex
	width    int
	max      int
	from     string // WidthLearned, WidthServer or WidthFixed
	settled  bool
	roomy    bool // a round found no call waiting: the server has a slot a call in flight
	inflight int
	fastest  time.Duration // the fastest answer seen: a call that did not wait

	// the round being measured (zero start: from its first call)
	start    time.Time
	answers  int
	latency  time.Duration // sum over the round's answers
	service  time.Duration // sum of what the server said its work took, over told answers
	told     int
	busy     time.Duration // time the width was full
	lastSeen time.Time
	// the last round judged: its width and throughput (answers a second)
	prevWidth int
	prevRate  float64
}

func newLimiter(start, limit int) *limiter {
	return &limiter{width: min(max(start, 1), limit), max: limit, from: WidthLearned}
}

// fix sets the width for good: what the server says of itself, or the
// user's.
func (l *limiter) fix(width int, from string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.width, l.from, l.settled, l.roomy = max(width, 1), from, true, true
}

// current is the width now and where it comes from.
func (l *limiter) current() (int, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.width, l.from
}

// slotted reports whether the server is known to have a slot for each
// call in flight: a round found none waiting, or the width is fixed.
func (l *limiter) slotted() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.roomy
}

// sent is a call as begin counted it: when, and at which width.
type sent struct {
	at    time.Time
	width int
}

// begin counts a call sent at now.
func (l *limiter) begin(now time.Time) sent {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tick(now)
	l.inflight++
	return sent{at: now, width: l.width}
}

// end counts the answer to c at now, with what the server says of its time
// (zero: nothing); failed calls say nothing of the server's speed (ok
// false). A server that says how long it held the call (total) is judged
// by that, not by the time the answer took to reach the client: the
// client's own load (a busy machine) is not the server's queue.
func (l *limiter) end(c sent, now time.Time, ok bool, told server.ServerTimes) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tick(now)
	l.inflight--
	took := now.Sub(c.at)
	if told.Total > 0 {
		took = min(told.Total, took)
	}
	if !ok || took <= 0 {
		return
	}
	if l.fastest == 0 || took < l.fastest {
		l.fastest = took
	}
	if l.settled && l.from != WidthLearned || c.width != l.width || c.at.Before(l.start) {
		return // fixed, or a call of another round
	}
	if l.start.IsZero() {
		l.start = c.at
	}
	l.answers++
	l.latency += took
	if told.Work > 0 {
		l.service += min(told.Work, took)
		l.told++
	}
	if l.answers >= max(roundCalls, l.width) {
		l.judge(now)
	}
}

// slots is the width to settle at when calls waited at width w: w calls in
// flight, each mean long, of which work is the service, show a server
// that serves est = w·work/mean at once. A round that begins as the width
// doubles sees the queue before it is full, so est is high then: between
// the last width without a wait and half as much again, that width is
// kept (one call too many waits and takes whichever slot frees first,
// away from the document that slot holds); beyond, est rounded down.
func (l *limiter) slots(w int, est float64) int {
	p := float64(l.prevWidth)
	switch {
	case est < 1.5:
		// One slot: one call waiting keeps it from idling between two, and
		// the waiting call is the next chunk of the same document (the
		// server is given one at a time), so it finds its prefix there.
		return min(w, 2)
	case est < p:
		return max(1, int(est+0.5))
	case est < 1.5*p:
		return l.prevWidth
	}
	return min(w, max(1, int(est)))
}

// tick adds the time since the last event to busy when the width was
// full; l.mu is held.
func (l *limiter) tick(now time.Time) {
	if !l.lastSeen.IsZero() && l.inflight >= l.width {
		l.busy += now.Sub(l.lastSeen)
	}
	l.lastSeen = now
}

// judge ends a round: keeps, doubles or lowers the width; l.mu is held.
// With the width kept full, a server's throughput is the calls in flight
// over their mean latency (Little's law): a doubling that brings no
// throughput is one whose answers took twice as long.
func (l *limiter) judge(now time.Time) {
	span := now.Sub(l.start)
	mean := l.latency / time.Duration(l.answers)
	full := span > 0 && float64(l.busy) >= busyShare*float64(span)
	w := l.width
	rate := float64(w) / mean.Seconds()
	// The time a call is served: what the server says of its answers
	// (Ollama's load, prompt-eval and eval durations; llama-server's
	// timings), else the fastest answer seen, a call that did not wait.
	work, ratio := l.fastest, queueRatioUntold
	// served is how many calls the server worked on at once, on average
	// over the round, by its own account: above one only where calls
	// overlapped at the server. A client too busy to keep its calls in
	// flight at once (a loaded machine) sends them one after another, and
	// answers that did not wait say nothing of a second slot.
	served := 0.0
	if 2*l.told >= l.answers {
		work, ratio = l.service/time.Duration(l.told), queueRatio
		served = float64(l.service) / float64(span)
	}
	l.start, l.answers, l.latency, l.service, l.told, l.busy = now, 0, 0, 0, 0, 0
	if !full {
		return // the run did not keep the width full: nothing learned
	}
	if float64(mean) > ratio*float64(work) {
		l.width, l.settled = l.slots(w, float64(w)*float64(work)/float64(mean)), true
		return
	}
	if float64(mean) <= roomyRatio*float64(work) && w > 1 && (served == 0 || served >= roomyServed) {
		l.roomy = true
	}
	switch {
	case l.settled:
	case l.prevWidth > 0 && rate < gainFloor*l.prevRate:
		l.width, l.settled = min(w, l.prevWidth), true // the doubling brought nothing: back
	case w >= l.max:
		l.settled = true
	default:
		l.prevWidth, l.prevRate = w, rate
		l.width = min(2*w, l.max)
	}
}
