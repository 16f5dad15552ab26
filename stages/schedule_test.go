package stages

import (
	"slices"

	"github.com/ocean-safety/ingest/models/modelfake"
)

// schedule is how the fakes' slots went through the documents: what a
// one-slot server's prompt cache keeps depends on it.
type schedule struct {
	switches int // runs of one document's calls on a slot, summed over slots: the documents, at best
	docs     int // documents sent
	reused   int // runes of the prompts the slots' caches held
	ideal    int // the same, had each slot taken its documents' calls one document after another
}

// scheduleOf reads the fakes' chat logs slot by slot, each in the order
// the slot answered its calls. A hedge (the pool sends a trial call that
// is slow to answer to a second server as well: the same prompt answered
// twice) is left out on the server that is not its document's home (the
// one that answered most of its calls): it is the pool's trial, not the
// schedule.
func scheduleOf(srvs []*modelfake.Server) schedule {
	var sc schedule
	docs := map[string]bool{}
	home := map[string]int{}        // document → the server that answered most of its calls
	answered := map[string][]bool{} // prompt → the servers that answered it
	perServer := map[string][]int{} // document → calls answered on each server
	for i, s := range srvs {
		for _, l := range s.Log(modelfake.OllamaChat) {
			if !l.Done {
				continue
			}
			d := docOf(l.Prompt)
			if perServer[d] == nil {
				perServer[d] = make([]int, len(srvs))
			}
			perServer[d][i]++
			if answered[l.Prompt] == nil {
				answered[l.Prompt] = make([]bool, len(srvs))
			}
			answered[l.Prompt][i] = true
		}
	}
	for d, n := range perServer {
		home[d] = slices.Index(n, slices.Max(n))
	}
	for i, s := range srvs {
		bySlot := map[int][]modelfake.Logged{}
		for _, l := range s.Log(modelfake.OllamaChat) {
			if d := docOf(l.Prompt); l.Done && (home[d] == i || !answered[l.Prompt][home[d]]) {
				bySlot[l.Slot] = append(bySlot[l.Slot], l)
			}
		}
		for _, calls := range bySlot {
			slices.SortStableFunc(calls, bySlotStart)
			// The ideal order: the slot's documents in the order it began
			// them, each one's calls together in the order it answered them.
			var order []string
			byDoc := map[string][]string{}
			last := ""
			for _, l := range calls {
				doc := docOf(l.Prompt)
				docs[doc] = true
				sc.reused += l.Reused
				if doc != last {
					sc.switches++
					last = doc
				}
				if byDoc[doc] == nil {
					order = append(order, doc)
				}
				byDoc[doc] = append(byDoc[doc], l.Prompt)
			}
			prev := ""
			for i, doc := range order {
				for j, p := range byDoc[doc] {
					if i > 0 || j > 0 {
						sc.ideal += modelfake.CommonPrefix(prev, p)
					}
					prev = p
				}
			}
		}
	}
	sc.docs = len(docs)
	return sc
}

// docOf is a prompt's document: the code its markers are named with.
func docOf(prompt string) string {
	if m := fenceCode.FindStringSubmatch(prompt); m != nil {
		return m[1]
	}
	return ""
}

// bySlotStart orders logged calls by when their slot took them.
func bySlotStart(a, b modelfake.Logged) int { return a.At.Add(a.Wait).Compare(b.At.Add(b.Wait)) }
