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
// stream's tasks wait in acquire, and release hands their places on.
//
// A document goes to the server Route names for it when its first chunk is
// admitted, and stays there while that server is healthy. A server's
// prompt cache is kept per slot, and a call takes the free slot that holds
// the longest prefix of its prompt; so each slot should work through one
// document, a chunk at a time, and a server as many documents at once as
// it has slots (Documents: its width once learned, one while it is). A
// free place on server s takes, in corpus order:
//  1. the next chunk of a document of its own with nothing in flight (the
//     slot that answered its last chunk is free and holds it), or with
//     fewer in flight than its share: a long document is given more slots,
//     so the stream's window is not held behind it (see share);
//  2. the first chunk of a new document routed to s, while s has fewer
//     documents going than Documents(s);
//  3. the first chunk of a document no slot has started, routed to a
//     server with more than rebalance rounds of work more than s, or
//     (s having nothing else) to one that is full, likewise: the document
//     moves whole, so the servers finish together;
//  4. else a chunk of a document of its own already in flight (a place
//     would idle: the document spreads over a second slot), else a new
//     document after all.
//
// A document whose server turns slow, rests or leaves the run is routed
// again, its answered chunks kept.
type Dispatcher struct {
	lanes  models.Lanes
	window int // chunks the enrich stream holds a server (see share)

	mu       sync.Mutex
	inflight []int
	going    []map[*Doc]bool // each server's documents with a chunk in flight
	waiting  []*ticket       // in submission order
}

// Doc is one document's place in the dispatcher.
type Doc struct {
	key      string
	server   int  // -1 until its first chunk is admitted, or while it is routed again
	started  bool // a chunk of it was admitted: it moves only when its server is out
	inflight int
	waiting  int
}

// ticket is one chunk waiting for a server.
type ticket struct {
	doc   *Doc
	ready chan int // the server it was admitted to
}

// rebalance is how many rounds of its width more work a server may have
// in the documents it has started than another before the other starts
// its new documents: the stable hash gives servers documents, not chunks,
// in even numbers, and the one with the longest would otherwise finish its
// share long after the others.
const rebalance = 2

// recheck is how often a waiting chunk looks again, in case a server came
// back from a rest while nothing was in flight to say so.
const recheck = time.Second

// New returns the dispatcher of l's servers; window is the chunks the
// enrich stream holds in all, running or waiting (see share).
func New(l models.Lanes, window int) *Dispatcher {
	d := &Dispatcher{lanes: l, window: max(1, window/l.Servers()), inflight: make([]int, l.Servers())}
	for range l.Servers() {
		d.going = append(d.going, map[*Doc]bool{})
	}
	return d
}

// Document is the dispatcher's record of a document, made on the enrich
// stream's callback goroutine when its chunks are submitted.
func (d *Dispatcher) Document(key string) *Doc {
	return &Doc{key: key, server: -1}
}

// Acquire waits until a chunk of doc may go, and returns the server it
// goes to; false when ctx ends first.
func (d *Dispatcher) Acquire(ctx context.Context, doc *Doc) (int, bool) {
	t := &ticket{doc: doc, ready: make(chan int, 1)}
	d.mu.Lock()
	d.waiting = append(d.waiting, t)
	doc.waiting++
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
			if i := slices.Index(d.waiting, t); i >= 0 {
				d.waiting = slices.Delete(d.waiting, i, i+1)
				doc.waiting--
				return 0, false
			}
			d.releaseLocked(doc, <-t.ready) // admitted as it gave up
			return 0, false
		case <-timer.C:
			d.mu.Lock()
			d.grant()
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

func (d *Dispatcher) releaseLocked(doc *Doc, s int) {
	d.inflight[s]--
	doc.inflight--
	if doc.inflight == 0 {
		delete(d.going[s], doc)
	}
	d.grant()
}

// grant admits every waiting chunk a server has room for; d.mu is held.
func (d *Dispatcher) grant() {
	n := len(d.inflight)
	widths := make([]int, n)
	for s := range n {
		widths[s] = d.lanes.Width(s)
	}
	// A document on a server that no longer takes calls is routed again.
	for _, t := range d.waiting {
		if doc := t.doc; doc.server >= 0 && widths[doc.server] == 0 {
			doc.server = -1
		}
	}
	routes := map[*Doc]int{}
	route := func(doc *Doc) int {
		if doc.server >= 0 {
			return doc.server
		}
		r, ok := routes[doc]
		if !ok {
			r = d.lanes.Route(doc.key)
			routes[doc] = r
		}
		return r
	}
	for granted := true; granted && len(d.waiting) > 0; {
		granted = false
		// Each server's work in rounds of its width: its calls in flight
		// and the waiting chunks of the documents it has started (those
		// not started yet may still go elsewhere).
		rounds := slices.Clone(d.inflight)
		for _, t := range d.waiting {
			if t.doc.started {
				rounds[route(t.doc)]++
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
			if i := d.pick(s, widths, load, route); i >= 0 {
				d.admit(i, s)
				granted = true
			}
		}
	}
	if len(d.waiting) > 0 && slices.Max(d.inflight) == 0 {
		// Nothing in flight, nothing admitted: every server is out for
		// now. The first chunk goes where it is routed, so the run either
		// gets its answer or its error.
		d.admit(0, route(d.waiting[0].doc))
	}
}

// pick is the waiting chunk server s takes (see Dispatcher), -1 for none.
func (d *Dispatcher) pick(s int, widths []int, load []float64, route func(*Doc) int) int {
	fresh, moving, behind, helping := -1, -1, -1, -1
	slots := d.lanes.Documents(s)
	for i, t := range d.waiting {
		r := route(t.doc)
		started := t.doc.started
		switch {
		case r == s && started && t.doc.inflight < d.share(t.doc, slots):
			return i
		case r == s && started:
			if helping < 0 {
				helping = i
			}
		case r == s:
			if fresh < 0 {
				fresh = i
			}
		case !started && behind < 0 && load[r]-load[s] > rebalance:
			behind = i
		case !started && moving < 0 && d.inflight[r] >= widths[r]:
			moving = i
		}
	}
	if len(d.going[s]) < slots {
		if fresh >= 0 && (behind < 0 || fresh < behind) {
			return fresh
		}
		if behind >= 0 {
			return behind
		}
		if moving >= 0 {
			return moving
		}
	}
	if helping >= 0 {
		return helping
	}
	if fresh >= 0 {
		return fresh
	}
	return moving
}

// share is how many of a server's slots doc may hold: one, or more for a
// long document. While a slot works through a document of D chunks, the
// server's other slots-1 answer (slots-1)·D chunks of the documents after
// it, which wait in the stream's window for it to finish; a window of B
// chunks a server holds that for D·slots/(B+D) slots' worth of it. Each
// slot more costs the document's prefix once, over D/share chunks.
func (d *Dispatcher) share(doc *Doc, slots int) int {
	n := doc.waiting + doc.inflight
	return max(1, (slots*n+d.window+n-1)/(d.window+n))
}

// admit sends waiting chunk i to server s; d.mu is held.
func (d *Dispatcher) admit(i, s int) {
	t := d.waiting[i]
	d.waiting = slices.Delete(d.waiting, i, i+1)
	t.doc.server, t.doc.started = s, true
	t.doc.waiting--
	t.doc.inflight++
	d.inflight[s]++
	d.going[s][t.doc] = true
	t.ready <- s
}
