package models

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/schema"
)

// Lanes is how a header writer's calls are spread over its servers, for
// the runner that schedules them: a document's calls go to one server (its
// prompt cache holds the document), and each server gets the calls in
// flight it serves. ModelHeaders implements it; the runner sends a call to
// server i with OnServer.
type Lanes interface {
	// Servers is how many servers answer the writer's calls.
	Servers() int
	// Route names the server a document's calls should go to now: a
	// stable hash of key among the healthy servers, so reruns and shards
	// agree, and another one only when that one is slow, resting or gone.
	Route(key string) int
	// Width is how many calls server i takes at once now (0: none, it is
	// slow, resting or gone): learned at run time, or what the server says
	// of itself, or the user's; never above the cap.
	Width(i int) int
	// Documents is how many documents server i should work on at once:
	// one a slot (a slot's prompt cache holds one document): as many as
	// its width once a round has shown a slot for each call, one until
	// then (a server with one slot answers a document's chunks in turn).
	Documents(i int) int
	// Fix sets the calls in flight for good: total in all, spread over
	// the servers (the user's llm_concurrency).
	Fix(total int)
	// MaxWidth is the most calls in flight Width can give all servers
	// together.
	MaxWidth() int
}

var _ Lanes = (*ModelHeaders)(nil)

type serverKey struct{}

// routed is where the runner sent a call: the server, and the document's
// key, so a call that server cannot take fails over where Route sends the
// document next.
type routed struct {
	server int
	key    string
}

// OnServer sends the calls made with the returned context to server i of
// the writer, when it can take them (the pool fails over otherwise).
func OnServer(ctx context.Context, i int) context.Context {
	return context.WithValue(ctx, serverKey{}, routed{server: i})
}

// ForDocument is OnServer for a call of the document key: when server i
// cannot take it, it goes where Route sends the document now.
func ForDocument(ctx context.Context, key string, i int) context.Context {
	return context.WithValue(ctx, serverKey{}, routed{server: i, key: key})
}

// serverOf is the server OnServer named; -1: any.
func serverOf(ctx context.Context) int {
	if r, ok := ctx.Value(serverKey{}).(routed); ok {
		return r.server
	}
	return -1
}

// documentOf is the document ForDocument named ("": none).
func documentOf(ctx context.Context) string {
	r, _ := ctx.Value(serverKey{}).(routed)
	return r.key
}

// router is the routing side of a writer's server: a pool, or one server
// alone.
type router interface {
	count() int
	route(key string) int
	// healthy reports whether server i takes chat calls now, and how many
	// at most whatever its width (0: no bound): one for a trial or a probe.
	healthy(i int) (ok bool, bound int)
}

// single is one server alone: always there.
type single struct{}

func (single) count() int              { return 1 }
func (single) route(string) int        { return 0 }
func (single) healthy(int) (bool, int) { return true, 0 }

func routerOf(s chatServer) router {
	if r, ok := s.(router); ok {
		return r
	}
	return single{}
}

// Servers implements Lanes.
func (h *ModelHeaders) Servers() int { return len(h.widths) }

// Route implements Lanes.
func (h *ModelHeaders) Route(key string) int { return h.router.route(key) }

// Width implements Lanes.
func (h *ModelHeaders) Width(i int) int {
	ok, bound := h.router.healthy(i)
	if !ok {
		return 0
	}
	w, _ := h.widths[i].current()
	if h.fixed > 0 {
		w = h.fixedShare(i)
	}
	if bound > 0 {
		w = min(w, bound)
	}
	return w
}

// fixedShare is server i's share of the fixed total among the servers
// that take calls now: one that is out leaves its share to the others.
func (h *ModelHeaders) fixedShare(i int) int {
	n, rank := 0, 0
	for j := range h.widths {
		if ok, _ := h.router.healthy(j); ok {
			if j < i {
				rank++
			}
			n++
		}
	}
	n = max(n, 1)
	return max(1, h.fixed/n+btoi(rank < h.fixed%n))
}

// Documents implements Lanes.
func (h *ModelHeaders) Documents(i int) int {
	if !h.widths[i].slotted() {
		return 1
	}
	return max(1, h.Width(i))
}

// Fix implements Lanes.
func (h *ModelHeaders) Fix(total int) {
	h.fixed = total
	for i, l := range h.widths {
		l.fix(h.fixedShare(i), WidthFixed)
	}
}

// MaxWidth implements Lanes.
func (h *ModelHeaders) MaxWidth() int {
	if h.fixed > 0 {
		return h.fixed
	}
	total := 0
	for _, l := range h.widths {
		w, from := l.current()
		if from == WidthLearned {
			w = l.max
		}
		total += w
	}
	return total
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// measure times one call on the server ctx names, for its limiter; the
// returned func ends it with the server's own account of its time.
func (h *ModelHeaders) measure(ctx context.Context) func(ok bool, told serverTimes) {
	i := serverOf(ctx)
	if i < 0 || i >= len(h.widths) {
		if len(h.widths) != 1 {
			return func(bool, serverTimes) {}
		}
		i = 0
	}
	l := h.widths[i]
	c := l.begin(time.Now())
	return func(ok bool, told serverTimes) { l.end(c, time.Now(), ok, told) }
}

// widthStats adds each server's calls in flight, as it settled, to the
// writer's endpoint stats (one entry for a server alone).
func (h *ModelHeaders) widthStats(eps []schema.EndpointStats) []schema.EndpointStats {
	if eps == nil {
		eps = []schema.EndpointStats{{Endpoint: h.where, Calls: int(h.calls.Load())}}
	}
	for i := range eps {
		if i < len(h.widths) {
			eps[i].InFlight, eps[i].InFlightFrom = h.widths[i].current()
		}
	}
	return eps
}
