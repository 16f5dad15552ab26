package dispatch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// lanes is servers of a fixed width, each working on docs documents at
// once; a document's key names its server ("1/…" goes to server 1).
type lanes struct{ servers, width, docs int }

func (l lanes) Servers() int { return l.servers }
func (l lanes) Route(key string) int {
	var s int
	fmt.Sscanf(key, "%d/", &s)
	return s % l.servers
}
func (l lanes) Width(int) int     { return l.width }
func (l lanes) Documents(int) int { return l.docs }
func (l lanes) Fix(int)           {}
func (l lanes) MaxWidth() int     { return l.servers * l.width }

// step is one chunk's arrival at the dispatcher: it waits for a place
// (Acquire), or needs none (skip).
type step struct {
	doc   string
	chunk int
	skip  bool
}

// TestOrder: whatever order the chunks arrive in, a server admits its
// documents in corpus order, each document's chunks in their order, and
// opens a document only when the one before has no chunk left to admit;
// the places are ended one at a time, oldest first, once nothing more can
// be admitted.
func TestOrder(t *testing.T) {
	tests := []struct {
		name   string
		lanes  lanes
		docs   map[string]int // chunks of each, made in key order
		arrive []step
		want   string // admissions, in order: doc/chunk@server
		before int    // of them, made before the first call ended
	}{
		{
			name:  "one slot: chunks arriving backwards",
			lanes: lanes{servers: 1, width: 2, docs: 1},
			docs:  map[string]int{"0/a": 3, "0/b": 2},
			arrive: []step{{"0/b", 0, false}, {"0/b", 1, false}, {"0/a", 2, false},
				{"0/a", 1, false}, {"0/a", 0, false}},
			want: "0/a#0@0 0/a#1@0 0/a#2@0 0/b#0@0 0/b#1@0", before: 2,
		},
		{
			name:   "one slot: the next document starts once the last call of the one before has ended",
			lanes:  lanes{servers: 1, width: 2, docs: 1},
			docs:   map[string]int{"0/a": 1, "0/b": 1},
			arrive: []step{{"0/a", 0, false}, {"0/b", 0, false}},
			want:   "0/a#0@0 0/b#0@0", before: 1,
		},
		{
			name:   "two slots: two documents at once",
			lanes:  lanes{servers: 1, width: 2, docs: 2},
			docs:   map[string]int{"0/a": 2, "0/b": 1},
			arrive: []step{{"0/b", 0, false}, {"0/a", 1, false}, {"0/a", 0, false}},
			want:   "0/a#0@0 0/b#0@0 0/a#1@0", before: 2,
		},
		{
			name:   "one slot: the next document waits for the open one's last chunk",
			lanes:  lanes{servers: 1, width: 2, docs: 1},
			docs:   map[string]int{"0/a": 2, "0/b": 1},
			arrive: []step{{"0/a", 0, false}, {"0/b", 0, false}, {"0/a", 1, false}},
			want:   "0/a#0@0 0/a#1@0 0/b#0@0", before: 2,
		},
		{
			name:   "skipped chunks: the order goes on past them",
			lanes:  lanes{servers: 1, width: 2, docs: 1},
			docs:   map[string]int{"0/a": 3, "0/b": 2, "0/c": 1},
			arrive: []step{{"0/c", 0, false}, {"0/b", 1, false}, {"0/a", 1, false}, {"0/a", 0, true}, {"0/b", 0, true}, {"0/a", 2, true}},
			want:   "0/a#1@0 0/b#1@0 0/c#0@0", before: 1,
		},
		{
			name:  "two servers: each its own documents, in order",
			lanes: lanes{servers: 2, width: 1, docs: 1},
			docs:  map[string]int{"0/a": 2, "1/b": 2, "0/c": 1, "1/d": 1},
			arrive: []step{{"1/d", 0, false}, {"0/c", 0, false}, {"1/b", 1, false}, {"1/b", 0, false},
				{"0/a", 1, false}, {"0/a", 0, false}},
			want: "1/b#0@1 0/a#0@0 1/b#1@1 0/a#1@0 1/d#0@1 0/c#0@0", before: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				d := New(tt.lanes, 16)
				keys := make([]string, 0, len(tt.docs))
				for k := range tt.docs {
					keys = append(keys, k)
				}
				slices.SortFunc(keys, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
				docs := map[string]*Doc{}
				for _, k := range keys {
					docs[k] = d.Document(k, tt.docs[k])
				}
				var mu sync.Mutex
				var got, step []string // admissions: in all, and since the last step
				// settle ends a step: its admissions, in order (those of
				// one step are made by one grant, in its order, but reach
				// the test in the order their goroutines run).
				settle := func() {
					synctest.Wait()
					mu.Lock()
					defer mu.Unlock()
					slices.SortFunc(step, func(a, b string) int { return strings.Compare(a[2:], b[2:]) })
					got, step = append(got, step...), nil
				}
				type place struct {
					doc    *Doc
					server int
				}
				admitted := make(chan place, 64)
				for _, st := range tt.arrive {
					if st.skip {
						d.Skip(docs[st.doc], st.chunk)
						settle()
						continue
					}
					go func() {
						s, ok := d.Acquire(context.Background(), docs[st.doc], st.chunk)
						if !ok {
							t.Errorf("%s#%d: not admitted", st.doc, st.chunk)
							return
						}
						mu.Lock()
						step = append(step, fmt.Sprintf("%s#%d@%d", st.doc, st.chunk, s))
						mu.Unlock()
						admitted <- place{docs[st.doc], s}
					}()
					settle() // it waits in Acquire, or is admitted
				}
				if len(got) != tt.before {
					t.Errorf("got %d admissions before the first call ended (%q), want %d", len(got), got, tt.before)
				}
				// End the calls one at a time, oldest first, until every
				// chunk has gone.
				calls := 0
				for _, st := range tt.arrive {
					if !st.skip {
						calls++
					}
				}
				for range calls {
					p := <-admitted
					d.Release(p.doc, p.server)
					settle()
				}
				if s := strings.Join(got, " "); s != tt.want {
					t.Errorf("got admissions\n  %s\nwant\n  %s", s, tt.want)
				}
			})
		})
	}
}

// TestStallValve: a document whose next chunk never comes (neither
// admitted nor skipped: a bug, or a task stuck before Acquire) holds its
// server's place for no longer than a whole recheck with nothing in
// flight; then the first waiting chunk goes, and the run goes on.
func TestStallValve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := New(lanes{servers: 1, width: 2, docs: 1}, 16)
		a, b := d.Document("0/a", 2), d.Document("0/b", 1)
		s, ok := d.Acquire(context.Background(), a, 0)
		if !ok {
			t.Fatal("0/a#0: not admitted")
		}
		d.Release(a, s) // 0/a#1 never comes
		start := time.Now()
		done := make(chan bool)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*recheck)
			defer cancel()
			_, ok := d.Acquire(ctx, b, 0)
			done <- ok
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("0/b#0 admitted while 0/a, open, had a chunk to come")
		default:
		}
		if !<-done {
			t.Fatalf("0/b#0: not admitted in %s", 10*recheck)
		}
		if waited := time.Since(start); waited < recheck || waited > 3*recheck {
			t.Errorf("0/b#0 went after %s, want after one to two rechecks (%s)", waited, recheck)
		}
	})
}
