package remote

import (
	"fmt"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
)

// simulate runs a limiter against a server with slots slots answering each
// call in service (FIFO beyond them), the client keeping the limiter's
// width in flight, for calls calls; it returns the width settled at and
// the most calls that waited at once.
func simulate(l *limiter, slots, calls int, service time.Duration, told time.Duration) (width, queued int) {
	return simulateBy(l, slots, calls, func(int) time.Duration { return service }, told > 0)
}

// simulateBy is simulate with call n served in service(n), told or not.
func simulateBy(l *limiter, slots, calls int, service func(n int) time.Duration, told bool) (width, queued int) {
	t0 := time.Unix(1_000_000, 0)
	type call struct {
		sent, done time.Time
		c          sent
		service    time.Duration
	}
	var free []time.Time // when each slot is next free
	for range slots {
		free = append(free, t0)
	}
	var inflight []call
	now := t0
	sent := 0
	for done := 0; done < calls; {
		for len(inflight) < func() int { w, _ := l.current(); return w }() && sent < calls {
			// FIFO: the call takes the slot that frees first.
			best := 0
			for i := range free {
				if free[i].Before(free[best]) {
					best = i
				}
			}
			start := now
			if free[best].After(now) {
				start = free[best]
			}
			d := service(sent)
			free[best] = start.Add(d)
			c := call{sent: now, done: start.Add(d), c: l.begin(now), service: d}
			inflight = append(inflight, c)
			sent++
			queued = max(queued, len(inflight)-slots)
		}
		next := 0
		for i := range inflight {
			if inflight[i].done.Before(inflight[next].done) {
				next = i
			}
		}
		c := inflight[next]
		inflight = append(inflight[:next], inflight[next+1:]...)
		now = c.done.Add(100 * time.Microsecond) // the client's turn-around
		var said server.ServerTimes
		if told {
			said = server.ServerTimes{Work: c.service, Total: c.done.Sub(c.sent)}
		}
		l.end(c.c, c.done, true, said)
		done++
	}
	width, _ = l.current()
	return width, queued
}

// TestLimiter: the width a server is given settles at its slots (a
// doubling that brings no throughput is undone; answers that wait show the
// slots), never above the cap, with no more than one call waiting a slot
// while it learns (and a 1-slot server never more than one); a fixed width
// stays.
func TestLimiter(t *testing.T) {
	const service = 40 * time.Millisecond
	tests := []struct {
		slots, cap, want int
		told             time.Duration // what the server says each call took (0: nothing)
	}{
		{1, 32, 2, 0}, {2, 32, 2, 0}, {8, 32, 8, 0}, {12, 32, 12, 0}, {64, 32, 32, 0}, {8, 4, 4, 0},
		{1, 32, 2, service}, {8, 32, 8, service}, // one slot: one call waiting
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("slots=%d/cap=%d/told=%v", tc.slots, tc.cap, tc.told > 0), func(t *testing.T) {
			got, queued := simulate(newLimiter(models.DefaultStartWidth, tc.cap), tc.slots, 400, 40*time.Millisecond, tc.told)
			if got < tc.want || got > tc.want+1 {
				t.Errorf("got width %d, want %d (or one more: the measure's rounding)", got, tc.want)
			}
			// The doubling that finds the slots full waits one round: one
			// waiting a slot, or that doubling's excess over the slots; a
			// 1-slot server never has more than one.
			p := models.DefaultStartWidth
			for p < tc.slots {
				p *= 2
			}
			limit := max(tc.slots, min(2*p, tc.cap)-tc.slots)
			if tc.slots == 1 {
				limit = 1
			}
			if queued > limit {
				t.Errorf("got %d calls waiting at once, want at most %d", queued, limit)
			}
		})
	}
	// A real server: calls that take 0.6 to 1.4 times the mean, the first
	// five times longer (the model loads); the server says what each took.
	jitter := func(n int) time.Duration {
		d := service * time.Duration(60+(n*37)%81) / 100
		if n == 0 {
			d *= 5
		}
		return d
	}
	for _, slots := range []int{2, 8} {
		if got, queued := simulateBy(newLimiter(models.DefaultStartWidth, 32), slots, 400, jitter, true); got < slots || got > slots+1 || queued > slots {
			t.Errorf("jittered, %d slots: got width %d, %d waiting at once; want %d (or one more: the measure's noise), at most %d", slots, got, queued, slots, slots)
		}
	}
	l := newLimiter(models.DefaultStartWidth, 32)
	l.fix(3, WidthFixed)
	if got, _ := simulate(l, 8, 200, service, 0); got != 3 {
		t.Errorf("fixed: got width %d, want 3", got)
	}
}

// TestRoomyNeedsCallsAtOnce: a server is taken to have a slot a call
// (slotted: a document a slot) only when a round's calls were worked on at
// once by its own account. A client too busy to send its two calls
// together (a loaded machine) has them answered one after the other
// without a wait: that says nothing of a second slot, and a one-slot
// server given two documents at once would alternate them on its slot.
func TestRoomyNeedsCallsAtOnce(t *testing.T) {
	const work = 20 * time.Millisecond
	for _, tc := range []struct {
		name      string
		gap, ends time.Duration // the second call's send after the first; when the client takes the answers
		want      bool
	}{
		{"both worked on at once", 0, work + time.Millisecond, true},
		{"one after the other, the client slow", 2 * time.Millisecond, 56 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLimiter(2, 2) // width 2, its cap: no doubling to judge
			at := time.Unix(1_000_000, 0)
			for range 4 {
				a := l.begin(at)
				b := l.begin(at.Add(tc.gap))
				l.end(a, at.Add(tc.ends), true, server.ServerTimes{Work: work, Total: work})
				l.end(b, at.Add(tc.ends+2*time.Millisecond), true, server.ServerTimes{Work: work, Total: work})
				at = at.Add(tc.ends + 2*time.Millisecond)
			}
			if got := l.slotted(); got != tc.want {
				t.Errorf("slotted: got %v, want %v", got, tc.want)
			}
		})
	}
}
