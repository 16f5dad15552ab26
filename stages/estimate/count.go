package estimate

import (
	"context"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Counter counts what a run would pay for, a document at a time in corpus
// order, each chunk as the run resolves it. It is not safe for concurrent
// use: the run's scan hands it documents on one goroutine.
type Counter struct {
	res            *Result
	reuse          *reuse.Resolver
	headers        models.HeaderWriter
	batchSize      int // embed.batch_size: texts a batch waits for
	maxWait        int // the rows a call's first text waits for it to fill at most
	headerMaxChars int
	b              batch
	costs          *costs
}

// NewCounter returns the counter of a run with these models and resolver,
// whose embedding calls wait for batchSize texts or for maxWait rows after
// their first, and whose headers are at most headerMaxChars long.
func NewCounter(headers models.HeaderWriter, embed models.Embedder, rs *reuse.Resolver, batchSize, maxWait, headerMaxChars int) *Counter {
	n := &Counter{res: &Result{headers: headers, embed: embed}, reuse: rs, headers: headers, batchSize: batchSize, maxWait: maxWait, headerMaxChars: headerMaxChars}
	n.costs = newCosts(n.res, headers, embed)
	return n
}

// Result is what has been counted so far; the caller adds what it counts
// of the corpus itself (documents, diagnostics, time).
func (n *Counter) Result() *Result { return n.res }

// Document counts the chunks of doc, prev being what the previous snapshot
// offers it. It gives each chunk the header the embedding would read.
func (n *Counter) Document(ctx context.Context, doc schema.Document, prev reuse.Offer, chunks []schema.Chunk) error {
	prevPrompt := ""
	for i := range chunks {
		if err := n.chunk(ctx, &prevPrompt, doc, prev, &chunks[i]); err != nil {
			return err
		}
	}
	return nil
}

// Close counts the last batch and returns the result.
func (n *Counter) Close() *Result {
	if n.b.misses > 0 {
		n.res.EmbeddingCalls++
	}
	if n.res.EmbedCost != nil {
		n.res.EmbedCost.Calls = n.res.EmbeddingCalls
	}
	return n.res
}

// batch follows the runner's embedding calls: a call is sent when it holds
// embed.batch_size texts, or when its first text has waited the runner's
// most rows (rows counts those since the first text).
type batch struct{ rows, misses int }

// costs is what the plan's costs are counted from: the model header
// writer's prompts, the embedder's inputs.
type costs struct {
	headers interface {
		Cost(schema.Document, schema.Chunk) (models.CallCost, bool)
	}
	embeds bool
	last   string // the previous prompt: the first of a document shares its system prompt with it
}

func newCosts(p *Result, headers models.HeaderWriter, embed models.Embedder) *costs {
	pc := &costs{embeds: !models.Offline(embed)}
	if h, ok := headers.(interface {
		Cost(schema.Document, schema.Chunk) (models.CallCost, bool)
	}); ok && !models.Offline(headers) {
		pc.headers, p.HeaderCost = h, &Cost{}
	}
	if pc.embeds {
		p.EmbedCost = &Cost{}
	}
	if pc.headers != nil || pc.embeds {
		p.Tokenizer = models.PlanTokens.Name()
	}
	return pc
}

// header counts c's header call; prev is the document's last prompt ("":
// none yet).
func (pc *costs) header(p *Result, prev *string, doc schema.Document, c schema.Chunk) {
	cost, ok := pc.headers.Cost(doc, c)
	if !ok {
		return // the writer makes no call for it (see models.HeaderWriter.Calls)
	}
	last := *prev
	if last == "" {
		last = pc.last
	}
	hc := p.HeaderCost
	hc.Calls++
	hc.PromptTokens += models.PlanTokens.Count(cost.Prompt) + chatOverhead
	hc.CachedTokens += models.PlanTokens.Count(cost.Prompt[:commonPrefix(last, cost.Prompt)])
	hc.AnswerTokens += cost.AnswerTokens
	*prev, pc.last = cost.Prompt, cost.Prompt
}

// commonPrefix is the bytes a and b share at their start, at a rune
// boundary.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// chunk counts what c would cost, as the run resolves it (see
// reuse.Resolver): its header (reused, answered by the writer at once, or
// a model call) and its vector (reused, or a text in a batch); prevPrompt
// is the document's last prompt.
func (n *Counter) chunk(ctx context.Context, prevPrompt *string, doc schema.Document, prev reuse.Offer, c *schema.Chunk) error {
	p, b, costs := n.res, &n.b, n.costs
	known := true
	switch h := n.reuse.Header(prev, doc, *c); {
	case h.From != reuse.Miss:
		c.ContextHeader = h.Enrichment.Header
		p.HeadersReused++
	case !h.Call:
		en, err := n.headers.Header(ctx, doc, *c) // no call: the writer answers it at once
		if err != nil {
			return err
		}
		c.ContextHeader = en.Header
	default:
		p.HeaderCalls++
		known = false // the model's header is part of the text embedded
		if costs.headers != nil {
			costs.header(p, prevPrompt, doc, *c)
		}
		c.ContextHeader = extractive.Header(doc.Title, *c, n.headerMaxChars) // as long as a model's, for the embedding's count
	}
	if known {
		_, _, from := n.reuse.Vector(prev, lexical.EmbedInput(*c))
		known = from != reuse.Miss
		if known {
			p.VectorsReused++
		}
	}
	if !known {
		b.misses++
		if costs.embeds {
			p.EmbedCost.PromptTokens += models.PlanTokens.Count(lexical.EmbedInput(*c))
		}
	}
	if b.misses > 0 {
		b.rows++
	}
	if b.misses == n.batchSize || b.rows == n.maxWait {
		p.EmbeddingCalls++
		*b = batch{}
	}
	return nil
}

// Whole counts the rows of a document the run takes whole from the
// previous snapshot: every header and vector reused, no call, and the rows
// still counted toward a waiting call's bounded wait, as the run holds them.
func (n *Counter) Whole(rows int) {
	p, b := n.res, &n.b
	p.HeadersReused += rows
	p.VectorsReused += rows
	for range rows {
		if b.misses > 0 {
			b.rows++
		}
		if b.rows == n.maxWait {
			p.EmbeddingCalls++
			*b = batch{}
		}
	}
}
