package dispatch

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/models"
)

// Dispatcher admits the enrich stream's model calls, a chunk at a time (a
// chunk's call and its repair): one server a document, at most Width(i)
// chunks in flight on server i. It starts no goroutine: the enrich
// stream's tasks wait in Acquire, Release hands their places on, and a
// chunk that needs no call (its header reused) is skipped (Skip), so the
// dispatcher knows what each document has still to come.
//
// A document goes to the server Route names for it when its first chunk is
// admitted, and stays there while that server is healthy. A server's
// prompt cache is kept per slot, and a call takes the free slot that holds
// the longest prefix of its prompt; so each slot should work through one
// document, a chunk at a time, and a server as many documents at once as
// it has slots (Documents: its width once learned, one while it is).
//
// The order is the corpus's, not the order the tasks happen to reach
// Acquire: a document is open on its server from its first chunk's
// admission until its last chunk's, a server opens its documents in corpus
// order and keeps at most Documents(s) open, and a document's chunks go in
// their order. So on a one-slot server the call waiting behind the running
// one is the same document's next chunk, the next document starts only
// once the last chunk of the one before is admitted, and the same corpus
// gives the same calls in the same order on every run; a place stays free
// for the instant the chunk next in that order takes to arrive. A free
// place on server s takes:
//  1. the next chunk of a document open on s with nothing in flight (the
//     slot that answered its last chunk is free and holds it), or with
//     fewer in flight than its share: a long document is given more slots,
//     so the stream's window is not held behind it (see share);
//  2. while s has fewer documents open than Documents(s): the first chunk
//     of the next document routed to s, in corpus order (waiting for it if
//     it has not come yet); before it, the first chunk of a document routed
//     to a server with more than rebalance rounds of work more than s;
//     with no document of its own to come, one routed to a server that is
//     full: the document moves whole, so the servers finish together;
//  3. else the next chunk of a document open on s already in flight (the
//     document spreads over a second slot; on a one-slot server, it waits
//     behind the running call), else nothing.
//
// A document whose server turns slow, rests or leaves the run is routed
// again, its answered chunks kept.
type Dispatcher struct {
	lanes  models.Lanes
	window int // chunks the enrich stream holds a server (see share)

	mu       sync.Mutex
	inflight []int
	docs     []*Doc    // documents with chunks neither admitted nor skipped, in corpus order
	seq      int       // documents made
	stalled  time.Time // since when rechecks have found nothing in flight and nothing admitted
}

// Doc is one document's place in the dispatcher.
type Doc struct {
	key      string
	seq      int  // its place in the corpus order
	server   int  // -1 until its first chunk is admitted, or while it is routed again
	started  bool // a chunk of it was admitted: it moves only when its server is out
	left     int  // chunks neither admitted nor skipped
	done     []bool
	next     int       // its first chunk neither admitted nor skipped
	waiting  []*ticket // by chunk
	inflight int
}

// ticket is one chunk waiting for a server.
type ticket struct {
	doc   *Doc
	chunk int
	ready chan int // the server it was admitted to
}

// rebalance is how many rounds of its width more work a server may have
// in the documents it has started than another before the other starts
// its new documents: the stable hash gives servers documents, not chunks,
// in even numbers, and the one with the longest would otherwise finish its
// share long after the others.
const rebalance = 2

// recheck is how often a waiting chunk looks again, in case a server came
// back from a rest while nothing was in flight to say so. Rechecks that
// find nothing in flight and nothing admitted for a whole recheck end the
// wait for the chunk next in order: the first waiting chunk goes (a
// safety valve; the order holds whenever chunks arrive within a recheck).
const recheck = time.Second

// New returns the dispatcher of l's servers; window is the chunks the
// enrich stream holds in all, running or waiting (see share).
func New(l models.Lanes, window int) *Dispatcher {
	return &Dispatcher{lanes: l, window: max(1, window/l.Servers()), inflight: make([]int, l.Servers())}
}

// Document is the dispatcher's record of a document of chunks chunks, made
// on the enrich stream's callback goroutine when they are submitted, in
// corpus order. Each chunk is then admitted (Acquire) or skipped (Skip),
// once.
func (d *Dispatcher) Document(key string, chunks int) *Doc {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc := &Doc{key: key, seq: d.seq, server: -1, left: chunks, done: make([]bool, chunks)}
	d.seq++
	if chunks > 0 {
		d.docs = append(d.docs, doc)
	}
	return doc
}

// Acquire waits until chunk i of doc may go, and returns the server it
// goes to; false when ctx ends first (the chunk is then to be skipped).
func (d *Dispatcher) Acquire(ctx context.Context, doc *Doc, i int) (int, bool) {
	t := &ticket{doc: doc, chunk: i, ready: make(chan int, 1)}
	d.mu.Lock()
	at, _ := slices.BinarySearchFunc(doc.waiting, i, func(t *ticket, i int) int { return t.chunk - i })
	doc.waiting = slices.Insert(doc.waiting, at, t)
	d.grant()
	d.mu.Unlock()
	timer := time.NewTimer(recheck)
	defer timer.Stop()
	for {
		select {
		case s := <-t.ready:
			return s, true
		case <-ctx.Done():
			d.mu.Lock()
			defer d.mu.Unlock()
			if j := slices.Index(doc.waiting, t); j >= 0 {
				doc.waiting = slices.Delete(doc.waiting, j, j+1)
				return 0, false
			}
			d.releaseLocked(doc, <-t.ready) // admitted as it gave up
			return 0, false
		case <-timer.C:
			d.mu.Lock()
			d.recheck()
			d.mu.Unlock()
			timer.Reset(recheck)
		}
	}
}

// Release ends a chunk's calls on server s.
func (d *Dispatcher) Release(doc *Doc, s int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.releaseLocked(doc, s)
}

// Skip says chunk i of doc needs no call (or gave up waiting): its
// document has one chunk fewer to come.
func (d *Dispatcher) Skip(doc *Doc, i int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.settle(doc, i)
	d.grant()
}

func (d *Dispatcher) releaseLocked(doc *Doc, s int) {
	d.inflight[s]--
	doc.inflight--
	d.grant()
}

// settle marks chunk i of doc admitted or skipped; d.mu is held.
func (d *Dispatcher) settle(doc *Doc, i int) {
	if i < 0 || i >= len(doc.done) || doc.done[i] {
		return
	}
	doc.done[i] = true
	doc.left--
	for doc.next < len(doc.done) && doc.done[doc.next] {
		doc.next++
	}
	if doc.left == 0 {
		if j := slices.Index(d.docs, doc); j >= 0 {
			d.docs = slices.Delete(d.docs, j, j+1)
		}
	}
}

// ready is doc's chunk next in order, when it is waiting; nil otherwise.
func (doc *Doc) ready() *ticket {
	if len(doc.waiting) > 0 && doc.waiting[0].chunk == doc.next {
		return doc.waiting[0]
	}
	return nil
}

// recheck grants again, and when rechecks have found nothing in flight
// and nothing admitted for a recheck, admits the first waiting chunk
// wherever its document is routed (see recheck); d.mu is held.
func (d *Dispatcher) recheck() {
	now := time.Now()
	if d.grant() || slices.Max(d.inflight) > 0 {
		d.stalled = time.Time{}
		return
	}
	if d.stalled.IsZero() {
		d.stalled = now
	}
	if now.Sub(d.stalled) < recheck {
		return
	}
	for _, doc := range d.docs {
		if len(doc.waiting) > 0 {
			d.admit(doc.waiting[0], d.route(doc, nil))
			d.stalled = time.Time{}
			return
		}
	}
}

// route is the server doc's calls go to now: its own, or where Route
// sends it (asked once a grant, in routes).
func (d *Dispatcher) route(doc *Doc, routes map[*Doc]int) int {
	if doc.server >= 0 {
		return doc.server
	}
	if r, ok := routes[doc]; ok {
		return r
	}
	r := d.lanes.Route(doc.key)
	if routes != nil {
		routes[doc] = r
	}
	return r
}

// grant admits every waiting chunk a server has room for, and reports
// whether it admitted any; d.mu is held.
func (d *Dispatcher) grant() bool {
	n := len(d.inflight)
	widths := make([]int, n)
	for s := range n {
		widths[s] = d.lanes.Width(s)
	}
	// A document on a server that no longer takes calls is routed again.
	for _, doc := range d.docs {
		if doc.server >= 0 && widths[doc.server] == 0 && len(doc.waiting) > 0 {
			doc.server = -1
		}
	}
	routes := map[*Doc]int{}
	any := false
	for granted := true; granted; {
		granted = false
		// Each server's work in rounds of its width: its calls in flight
		// and the chunks to come of the documents it has started (those
		// not started yet may still go elsewhere).
		rounds := slices.Clone(d.inflight)
		for _, doc := range d.docs {
			if doc.started {
				rounds[d.route(doc, routes)] += doc.left
			}
		}
		load := make([]float64, n)
		for s := range n {
			load[s] = float64(rounds[s]) / float64(max(widths[s], 1))
		}
		for s := range n {
			if d.inflight[s] >= widths[s] {
				continue
			}
			if t := d.pick(s, widths, load, routes); t != nil {
				d.admit(t, s)
				granted, any = true, true
			}
		}
	}
	if slices.Max(d.inflight) == 0 && slices.Max(widths) == 0 {
		// Nothing in flight and every server out for now: the first
		// waiting chunk goes where it is routed, so the run either gets
		// its answer or its error.
		for _, doc := range d.docs {
			if len(doc.waiting) > 0 {
				d.admit(doc.waiting[0], d.route(doc, routes))
				return true
			}
		}
	}
	return any
}

// pick is the waiting chunk server s takes (see Dispatcher), nil for none.
func (d *Dispatcher) pick(s int, widths []int, load []float64, routes map[*Doc]int) *ticket {
	slots := d.lanes.Documents(s)
	var helping, behind, moving *ticket
	open, own := 0, false // documents open on s; a document of its own is next
	for _, doc := range d.docs {
		r := d.route(doc, routes)
		t := doc.ready()
		switch {
		case doc.started && r == s:
			open++
			if t != nil && doc.inflight < d.share(doc, slots) {
				return t
			}
			if helping == nil {
				helping = t
			}
		case doc.started || own:
		case r == s:
			// The next document of its own, in corpus order: it goes
			// before any later one, come or not.
			own = true
			if behind == nil {
				behind = t
			}
		case t != nil && behind == nil && load[r]-load[s] > rebalance:
			behind = t
		case t != nil && moving == nil && d.inflight[r] >= widths[r]:
			moving = t
		}
	}
	// A server that works on one document at a time starts the next once
	// the last call of the one before has ended, not beside it: two calls
	// in flight race to the server, and the next document's first, arriving
	// first, would take the slot between the other's chunks.
	if open < slots && (slots > 1 || d.inflight[s] == 0) {
		if behind != nil {
			return behind
		}
		if !own && moving != nil {
			return moving
		}
	}
	return helping
}

// share is how many of a server's slots doc may hold: one, or more for a
// long document. While a slot works through a document of D chunks, the
// server's other slots-1 answer (slots-1)·D chunks of the documents after
// it, which wait in the stream's window for it to finish; a window of B
// chunks a server holds that for D·slots/(B+D) slots' worth of it. Each
// slot more costs the document's prefix once, over D/share chunks.
func (d *Dispatcher) share(doc *Doc, slots int) int {
	n := doc.left + doc.inflight
	return max(1, (slots*n+d.window+n-1)/(d.window+n))
}

// admit sends waiting chunk t to server s; d.mu is held.
func (d *Dispatcher) admit(t *ticket, s int) {
	doc := t.doc
	if j := slices.Index(doc.waiting, t); j >= 0 {
		doc.waiting = slices.Delete(doc.waiting, j, j+1)
	}
	doc.server, doc.started = s, true
	doc.inflight++
	d.inflight[s]++
	d.settle(doc, t.chunk)
	t.ready <- s
}
