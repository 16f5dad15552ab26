package remote

import (
	"context"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
)

var _ models.Lanes = (*ModelHeaders)(nil)

// router is the routing side of a writer's server: a pool, or one server
// alone.
type router interface {
	Count() int
	Route(key string) int
	// healthy reports whether server i takes chat calls now, and how many
	// at most whatever its width (0: no bound): one for a trial or a probe.
	Healthy(i int) (ok bool, bound int)
}

// single is one server alone: always there.
type single struct{}

func (single) Count() int { return 1 }

func (single) Route(string) int { return 0 }

func (single) Healthy(int) (bool, int) { return true, 0 }

func routerOf(s server.Chatter) router {
	if r, ok := s.(router); ok {
		return r
	}
	return single{}
}

// Servers implements Lanes.
func (h *ModelHeaders) Servers() int { return len(h.widths) }

// Route implements Lanes.
func (h *ModelHeaders) Route(key string) int { return h.router.Route(key) }

// Width implements Lanes.
func (h *ModelHeaders) Width(i int) int {
	ok, bound := h.router.Healthy(i)
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
		if ok, _ := h.router.Healthy(j); ok {
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
func (h *ModelHeaders) measure(ctx context.Context) func(ok bool, told server.ServerTimes) {
	i := models.ServerOf(ctx)
	if i < 0 || i >= len(h.widths) {
		if len(h.widths) != 1 {
			return func(bool, server.ServerTimes) {}
		}
		i = 0
	}
	l := h.widths[i]
	c := l.begin(time.Now())
	return func(ok bool, told server.ServerTimes) { l.end(c, time.Now(), ok, told) }
}

// widthStats adds each server's calls in flight, as it settled, to the
// writer's endpoint stats (one entry for a server alone).
func (h *ModelHeaders) widthStats(eps []schema.EndpointStats) []schema.EndpointStats {
	if eps == nil {
		eps = []schema.EndpointStats{{Endpoint: h.Where, Calls: int(h.calls.Load())}}
	}
	for i := range eps {
		if i < len(h.widths) {
			eps[i].InFlight, eps[i].InFlightFrom = h.widths[i].current()
		}
	}
	return eps
}
