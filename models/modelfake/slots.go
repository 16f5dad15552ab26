package modelfake

import (
	"context"
	"slices"
	"time"
	"unicode/utf8"
)

// A model server answers a few calls at once, each in a slot that keeps
// the prompt it last read (its prompt cache); the other calls wait their
// turn. The fake's slots follow Ollama's runner (runner/ollamarunner
// cache.go, one user): a call takes the free slot whose last prompt shares
// the longest prefix with its own, and reuses that prefix. Chat and embed
// calls have slots of their own, as a chat and an embedding model each run
// in their own runner.

// Logged is one chat or embed call as the server's slots saw it.
type Logged struct {
	At      time.Time     // when it arrived
	Wait    time.Duration // how long it waited for a slot
	Slot    int           // the slot that answered it
	Queued  int           // calls waiting for a slot once it arrived, itself included (0: it got one at once)
	Prompt  string        // chat: the messages as the model reads them; embed: empty
	Reused  int           // runes of Prompt its slot's previous prompt shares: what its prompt cache saves
	NumCtx  int           // the context window the call asked for (0: none)
	Model   string
	Done    bool // answered in full (not cancelled, not failed)
	Elapsed time.Duration
	// PromptTokens and AnswerTokens are what a chat answer said it read
	// and wrote (prompt_eval_count and eval_count, or usage).
	PromptTokens, AnswerTokens int
}

// slotSet is one model's slots on one server.
type slotSet struct {
	n     int       // 0: as many as calls
	last  []string  // each slot's last prompt
	busy  []bool    // each slot in use
	queue []*waiter // calls waiting, in arrival order
}

type waiter struct {
	prompt string
	slot   chan int // the slot it was given
}

// take gives the call a slot, waiting in the queue when every slot is
// busy; queued is how long the queue was with it (0: a slot at once).
// It fails when ctx ends first.
func (s *Server) take(ctx context.Context, kind, prompt string) (slot, queued int, reused int, err error) {
	s.mu.Lock()
	ss := s.slots[kind]
	if ss == nil {
		ss = &slotSet{n: s.opt.Slots}
		s.slots[kind] = ss
	}
	if slot, ok := ss.free(prompt); ok && len(ss.queue) == 0 {
		reused = ss.claim(slot, prompt)
		s.mu.Unlock()
		return slot, queued, reused, nil
	}
	w := &waiter{prompt: prompt, slot: make(chan int, 1)}
	ss.queue = append(ss.queue, w)
	queued = len(ss.queue)
	s.mu.Unlock()
	select {
	case slot = <-w.slot:
		s.mu.Lock()
		reused = ss.claim(slot, prompt)
		s.mu.Unlock()
		return slot, queued, reused, nil
	case <-ctx.Done():
	case <-s.done:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(ss.queue, w); i >= 0 {
		ss.queue = slices.Delete(ss.queue, i, i+1)
		return 0, queued, 0, context.Canceled
	}
	// Given a slot as it gave up: hand it on.
	ss.release(<-w.slot)
	return 0, queued, 0, context.Canceled
}

// free finds the free slot whose last prompt shares the longest prefix
// with prompt (the first of equals), adding one when the set has no bound.
func (ss *slotSet) free(prompt string) (int, bool) {
	best, bestLen := -1, -1
	for i, b := range ss.busy {
		if b {
			continue
		}
		if n := commonPrefix(ss.last[i], prompt); n > bestLen {
			best, bestLen = i, n
		}
	}
	if best < 0 && (ss.n == 0 || len(ss.busy) < ss.n) {
		ss.busy, ss.last = append(ss.busy, false), append(ss.last, "")
		best = len(ss.busy) - 1
	}
	return best, best >= 0
}

// claim marks slot busy with prompt, and returns the runes its cache
// reuses.
func (ss *slotSet) claim(slot int, prompt string) int {
	ss.busy[slot] = true
	n := commonPrefix(ss.last[slot], prompt)
	ss.last[slot] = prompt
	return n
}

// release frees slot, or gives it to the first call waiting; s.mu is held.
func (ss *slotSet) release(slot int) {
	ss.busy[slot] = false
	if len(ss.queue) == 0 {
		return
	}
	w := ss.queue[0]
	ss.queue = ss.queue[1:]
	ss.busy[slot] = true // held for w, which claims it
	w.slot <- slot
}

// leave frees the slot of a call that has ended.
func (s *Server) leave(kind string, slot int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slots[kind].release(slot)
}

// CommonPrefix is the number of runes a and b share at their start: what
// a slot whose last prompt was a reuses of b.
func CommonPrefix(a, b string) int { return commonPrefix(a, b) }

// commonPrefix is the number of runes a and b share at their start.
func commonPrefix(a, b string) int {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		a, b = a[sa:], b[sb:]
		n++
	}
	return n
}

// logCall records a call in the log of path.
func (s *Server) logCall(path string, l Logged) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log[path] = append(s.log[path], l)
}

// Log returns the calls to path that reached a slot, in the order they
// ended: the request log a benchmark reads prompt-cache reuse, queueing
// and windows from.
func (s *Server) Log(path string) []Logged {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.log[path])
}

// slotKind is the slot set a path's calls share.
func slotKind(path string) string {
	switch path {
	case OllamaChat, OpenAIChat:
		return "chat"
	}
	return "embed"
}
