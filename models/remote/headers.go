package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/sentence"
)

var _ models.HeaderWriter = (*ModelHeaders)(nil)

// ModelHeaders is the header writer backed by a model server (Ollama or
// OpenAI-compatible): one chat call per chunk with a JSON-schema-constrained
// answer that is validated here, one repair call for an invalid answer, and
// the extractive header when the repair fails too. Server failures are
// errors, never fallbacks. Safe for concurrent use.
type ModelHeaders struct {
	name     string
	Where    string // "ollama at http://…", for errors
	model    string
	server   server.Chatter
	retry    *server.Retrier
	maxChars int
	window   int // the context window every call asks for (chatWindow)
	router   router
	widths   []*limiter // each server's calls in flight (lanes.go)
	fixed    int        // llm_concurrency: calls in flight in all, over the servers that take calls (0: learned)
	schema   json.RawMessage
	system   string

	calls, repairs, fallbacks atomic.Int64
	badThresholds             atomic.Int64
	invalid                   reasonCounts
	usage                     usageTally
	preps                     prompt.PrepCache
}

// Name implements HeaderWriter: backend, model, digest and prompt version.
func (h *ModelHeaders) Name() string { return h.name }

// Stats returns what the writer has done so far.
func (h *ModelHeaders) Stats() schema.ModelStats {
	return schema.ModelStats{Calls: h.calls.Load(), Retries: h.retry.Retries.Load(), Repairs: h.repairs.Load(), Fallbacks: h.fallbacks.Load(),
		Invalid: h.invalid.snapshot(), BadThresholds: h.badThresholds.Load(), Endpoints: h.widthStats(endpointStats(h.server)), Usage: h.usage.snapshot()}
}

// Calls implements HeaderWriter: every chunk is sent but a table row (its
// header is its table's context; a model adds cost, not facts) and a chunk
// with instruction text (the model would read it as instructions).
func (h *ModelHeaders) Calls(c schema.Chunk) bool {
	return c.Element != schema.ElementTableRow && len(prompt.InstructionSpans(c.Text)) == 0
}

// Header implements HeaderWriter. A chunk whose bytes in the document
// overlap a paragraph that reads as instructions is not sent either, though
// its text (read by its format) may not show it: Calls, which sees the
// chunk alone, counts a call for it.
func (h *ModelHeaders) Header(ctx context.Context, doc schema.Document, c schema.Chunk) (models.Enrichment, error) {
	if c.Element == schema.ElementTableRow {
		return models.Enrichment{Header: extractive.Header(doc.Title, c, h.maxChars), Source: schema.HeaderExtractive}, nil
	}
	prep := h.preps.Get(doc)
	if !h.Calls(c) || prep.Instructions(c.ByteStart, c.ByteEnd) {
		// Not quoted in the header either.
		h.invalid.add([]string{prompt.ReasonInstructionText})
		return models.Enrichment{Header: extractive.LocationHeader(doc.Title, c, h.maxChars), Source: schema.HeaderExtractiveFallback,
			RejectReasons: []string{prompt.ReasonInstructionText}}, nil
	}
	ev := prompt.EvidenceOf(prep, c)
	msgs := []server.ChatMessage{{Role: "system", Content: h.system}, {Role: "user", Content: h.userMessage(prep, doc, c)}}
	raw, err := h.ask(ctx, msgs)
	if err != nil {
		return models.Enrichment{}, err
	}
	a, bad, verr := prompt.CheckAnswer(raw, h.maxChars, ev)
	h.badThresholds.Add(int64(bad))
	if verr == nil {
		return a.Enrichment(1), nil
	}
	h.invalid.add(prompt.Reasons(verr))
	h.repairs.Add(1)
	msgs = append(msgs, server.ChatMessage{Role: "assistant", Content: sentence.Cap(raw, prompt.MaxRejectedEcho)},
		server.ChatMessage{Role: "user", Content: prompt.RepairPrompt(verr)})
	raw, err = h.ask(ctx, msgs)
	if err != nil {
		return models.Enrichment{}, err
	}
	a, bad, verr = prompt.CheckAnswer(raw, h.maxChars, ev)
	h.badThresholds.Add(int64(bad))
	if verr == nil {
		return a.Enrichment(2), nil
	}
	h.invalid.add(prompt.Reasons(verr))
	h.fallbacks.Add(1)
	return models.Enrichment{Header: extractive.Header(doc.Title, c, h.maxChars), Source: schema.HeaderExtractiveFallback,
		Reject: raw, RejectReasons: prompt.Reasons(verr), Calls: 2}, nil
}

// reasonCounts counts invalid answers by reason; safe for concurrent use.
type reasonCounts struct {
	mu sync.Mutex
	n  map[string]int64
}

func (r *reasonCounts) add(reasons []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]int64{}
	}
	for _, x := range reasons {
		r.n[x]++
	}
}

func (r *reasonCounts) snapshot() map[string]int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.n) == 0 {
		return nil
	}
	return maps.Clone(r.n)
}

// usageTally sums what the servers said of their work; safe for
// concurrent use.
type usageTally struct {
	mu sync.Mutex
	u  schema.Usage
}

func (t *usageTally) add(u schema.Usage) {
	if u.Calls == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.u.Add(u)
}

// snapshot is the sum so far; nil when no answer said anything.
func (t *usageTally) snapshot() *schema.Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.u.Calls == 0 {
		return nil
	}
	u := t.u
	return &u
}

// ask makes one chat call, retried on transient failures.
func (h *ModelHeaders) ask(ctx context.Context, msgs []server.ChatMessage) (string, error) {
	req := server.ChatRequest{Model: h.model, Messages: msgs, Schema: h.schema, NumCtx: h.window}
	var a server.ChatAnswer
	err := h.retry.Do(ctx, func(ctx context.Context) error {
		done := h.measure(ctx)
		var err error
		a, err = h.server.Chat(ctx, req)
		// An answer from another server than the one the call was sent
		// to (a trial's hedge, a failover) says nothing of that one.
		done(err == nil && (models.ServerOf(ctx) < 0 || a.From == models.ServerOf(ctx)), a.Times)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("%s: chat: %w", h.Where, err)
	}
	h.calls.Add(1)
	h.usage.add(a.Usage)
	return a.Content, nil
}

// userMessage is c's prompt, made to fit the window with room for the
// answer and a repair round: the document up to promptDocChars, shortened
// for a long chunk or a small window, and the chunk itself cut only when
// it does not fit alone. Tokens are lexical.ApproxTokens, which counts more
// than a model's tokenizer (10-40% on the corpora tried), and the window
// keeps a fifth spare: the server need not cut the prompt, which it would
// do silently, from the start.
func (h *ModelHeaders) userMessage(p *prompt.DocPrep, doc schema.Document, c schema.Chunk) string {
	room := h.window*4/5 - 3*prompt.AnswerTokens - lexical.ApproxTokens{}.Count(h.system) - 16
	docChars := prompt.PromptDocChars
	for range 16 {
		u := prompt.PreparedPrompt(p, doc, c, docChars)
		over := lexical.ApproxTokens{}.Count(u) - room
		if over <= 0 {
			return u
		}
		// A token is at least one character (and four of a word): cutting
		// four characters an excess token is enough in a few rounds.
		if docChars > 0 {
			docChars = max(0, min(docChars, utf8.RuneCountInString(p.Body))-4*over-16)
			continue
		}
		n := utf8.RuneCountInString(c.Text) - 4*over - 16
		if n <= 0 {
			c.Text = prompt.ChunkCut
			continue
		}
		c.Text = string([]rune(c.Text)[:n]) + "\n" + prompt.ChunkCut
	}
	return prompt.PreparedPrompt(p, doc, c, 0)
}
