package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models/modelfake"
)

// docOrder is the order each fake's slots took their documents in,
// hashed: two runs that gave each server the same documents in the same
// order have the same. (Within a document, the call waiting behind the
// running one and the running one's successor may reach the server in
// either order: both are in flight at once, and they share the document's
// prefix either way.)
func docOrder(srvs []*modelfake.Server) string {
	h := sha256.New()
	for i, s := range srvs {
		calls := s.Log(modelfake.OllamaChat)
		slices.SortStableFunc(calls, bySlotStart)
		last := ""
		for _, l := range calls {
			if d := docOf(l.Prompt); d != last {
				fmt.Fprintf(h, "%d\x00%s\x00", i, d)
				last = d
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TestOneSlotSchedule: against one-slot servers (one, and two), each
// document's chunks are consecutive on its server (document switches equal
// the documents) and the prefix the slots' caches hold is the
// per-document ideal's, in three runs; one server gets the same documents
// in the same order every run: the schedule is the corpus's, not the
// timing's. (Two servers share the documents by their work, and a server
// with nothing of its own left takes a document another has not started:
// which server a document goes to may change between runs, never that its
// chunks go together.) Before, a document's next chunk arriving a moment
// late gave its place to the next document, and the two then alternated
// on the slot (31–37 switches for 29 documents).
func TestOneSlotSchedule(t *testing.T) {
	for _, servers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d servers", servers), func(t *testing.T) {
			t.Parallel()
			var orders []string
			for run := range 3 {
				_, srvs := runOnServers(t, servers, modelfake.Options{Dims: 1024, Latency: 20 * time.Millisecond, Slots: 1}, nil, topLevel)
				sc := scheduleOf(srvs)
				if sc.switches != sc.docs {
					t.Errorf("run %d: got %d document switches for %d documents, want each document's chunks together:\n%s", run, sc.switches, sc.docs, slotSequence(srvs))
				}
				if float64(sc.reused) < 0.97*float64(sc.ideal) {
					t.Errorf("run %d: the slots' caches held %d runes, want at least 0.97 of the %d with each document together", run, sc.reused, sc.ideal)
				}
				orders = append(orders, docOrder(srvs))
			}
			if servers == 1 && len(slices.Compact(slices.Clone(orders))) != 1 {
				t.Errorf("got the documents in different orders over three runs (%v), want one order", orders)
			}
		})
	}
}

// slotSequence lists each fake's calls as its slots took them: the
// document (numbered as first seen) and when, for a failure's message.
func slotSequence(srvs []*modelfake.Server) string {
	var b strings.Builder
	codes := map[string]int{}
	for i, s := range srvs {
		calls := s.Log(modelfake.OllamaChat)
		slices.SortStableFunc(calls, bySlotStart)
		fmt.Fprintf(&b, "server %d:", i)
		for _, l := range calls {
			d := docOf(l.Prompt)
			if _, ok := codes[d]; !ok {
				codes[d] = len(codes)
			}
			fmt.Fprintf(&b, " %d(slot %d, +%dms)", codes[d], l.Slot, l.At.Add(l.Wait).Sub(calls[0].At).Milliseconds())
		}
		b.WriteString("\n")
	}
	return b.String()
}
