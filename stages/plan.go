package stages

import (
	"context"
	"time"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/depot"
	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/reuse"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/snapshot"
)

// PlanResult is what a run would do, counted without doing it.
type PlanResult struct {
	Documents      int    `json:"documents"`
	Rejected       int    `json:"rejected"`
	Chunks         int    `json:"chunks"`
	Bytes          int64  `json:"bytes"`           // of the documents read
	HeaderCalls    int    `json:"header_calls"`    // chunks whose header a model would write
	HeadersReused  int    `json:"headers_reused"`  // from the previous snapshot or the journal
	EmbeddingCalls int    `json:"embedding_calls"` // batches the embedder would be sent
	VectorsReused  int    `json:"vectors_reused"`
	Previous       string `json:"previous,omitempty"` // the snapshot reused from
	// Tokenizer is what the costs' tokens are counted with: an estimate,
	// not the model's own tokenizer.
	Tokenizer   string              `json:"tokenizer,omitempty"`
	HeaderCost  *Cost               `json:"header_cost,omitempty"`    // the header calls a model would answer
	EmbedCost   *Cost               `json:"embedding_cost,omitempty"` // the embedding calls a model server would answer
	Diagnostics []schema.Diagnostic `json:"diagnostics"`
	Seconds     float64             `json:"seconds"`

	headers models.HeaderWriter // what the plan counted with (Models)
	embed   models.Embedder
}

// Models are the header writer and embedder the plan counted with, as the
// run would open them: a caller measures their servers' rates with them.
func (p *PlanResult) Models() (models.HeaderWriter, models.Embedder) { return p.headers, p.embed }

// Cost is what one model's calls would cost: the same figures report.json
// records as the servers count them (artifacts.ModelReport's usage), so a
// plan and its run can be compared.
type Cost struct {
	Calls        int `json:"calls"`
	PromptTokens int `json:"prompt_tokens"`
	// CachedTokens are the prompt tokens a server's prefix cache can skip:
	// what each prompt shares with the one before it on the same slot,
	// one slot a document (the dispatcher's order).
	CachedTokens int `json:"cached_tokens"`
	AnswerTokens int `json:"answer_tokens"`
	// Seconds is the estimated time at Rate, when a rate was given or
	// measured: fresh prompt tokens at the prefill rate and answer tokens
	// at the decode rate, one call at a time on each server (a server that
	// answers several at once is faster).
	Seconds float64 `json:"seconds,omitempty"`
	Rate    *Rate   `json:"rate,omitempty"`
}

// Rate is how fast a model server reads and writes, tokens a second, one
// call at a time: given (--plan-rate) or measured by one call to each
// server (--probe).
type Rate struct {
	Prefill float64 `json:"prefill,omitempty"`  // prompt tokens a second
	Decode  float64 `json:"decode,omitempty"`   // answer tokens a second
	PerCall float64 `json:"per_call,omitempty"` // seconds a call, for a server that says nothing of its tokens' time
	Servers int     `json:"servers"`            // the servers the calls are spread over
	From    string  `json:"from"`               // "given" | "probe"
}

// Estimate fills c's Seconds at rate.
func (c *Cost) Estimate(rate Rate) {
	var s float64
	switch {
	case c == nil:
		return
	case rate.Prefill > 0:
		s = float64(c.PromptTokens-c.CachedTokens) / rate.Prefill
		if rate.Decode > 0 {
			s += float64(c.AnswerTokens) / rate.Decode
		}
	case rate.PerCall > 0:
		s = float64(c.Calls) * rate.PerCall
	default:
		return
	}
	c.Seconds, c.Rate = s/float64(max(rate.Servers, 1)), &rate
}

// chatOverhead is the tokens a chat template adds to a call's messages:
// about five a message (role markers) and three to open the answer.
const chatOverhead = 2*5 + 3

// Plan reads, chunks and normalises the corpus with the same workers and
// order as Run, and counts what a run into target would pay for: the
// header and embedding calls the plugged-in writer and embedder would make,
// after what the previous snapshot and the journal of an interrupted run
// already hold. It writes nothing, takes no lock and calls no model (a
// header a model would write is counted, and its chunk's vector too,
// since the vector reads the header). The target is checked as a run
// checks it; a bucket's latest is not fetched (that takes the lock), so
// only --prev is reused from there.
func Plan(ctx context.Context, cfg Config, target depot.Target, opt Options) (*PlanResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := target.Check(cfg.Corpus); err != nil {
		return nil, err
	}
	opt, err := openModels(ctx, cfg, target, opt)
	if err != nil {
		return nil, err
	}
	r, err := newRun(cfg, opt)
	if err != nil {
		return nil, err
	}
	r.target = target
	start := time.Now()
	listing, err := corpus.ScanFiltered(cfg.Corpus, cfg.Filter)
	if err != nil {
		return nil, err
	}
	r.openPrevious(ctx)
	defer r.prev.Close()
	if r.journal, err = snapshot.ReadJournal(target.Journal()); err != nil {
		return nil, err
	}
	if r.journal != nil {
		defer r.journal.Close()
	}
	r.reuse = reuse.New(r.keys, r.headers, r.embed, r.journal, r.cfg.RetryRejected)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.errs.cancel = cancel
	p := &PlanResult{Diagnostics: append([]schema.Diagnostic{}, r.setup...), headers: r.headers, embed: r.embed}
	if r.prev != nil {
		p.Previous = r.prev.Dir
	}
	var b planBatch
	costs := r.newPlanCosts(p)
	r.scan(ctx, listing.Docs, func(res docResult) {
		if res.err != nil {
			r.errs.set(res.err)
			return
		}
		p.Diagnostics = append(p.Diagnostics, r.cfg.Diagnostics.mark(res.diags)...)
		switch {
		case res.rejected:
			p.Rejected++
		case res.doc.Draft:
		default:
			p.Documents++
			p.Bytes += int64(len(res.doc.Text))
			p.Chunks += len(res.chunks)
			prev := ""
			for i := range res.chunks {
				r.planChunk(ctx, p, &b, costs, &prev, res.doc, res.prev, &res.chunks[i])
			}
		}
	})
	if b.misses > 0 {
		p.EmbeddingCalls++
	}
	if p.EmbedCost != nil {
		p.EmbedCost.Calls = p.EmbeddingCalls
	}
	if err := r.errs.get(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.Seconds = time.Since(start).Seconds()
	return p, nil
}

// planBatch follows the runner's batching: a batch is sent when it holds
// embed.batch_size texts to embed, or maxBatchRows rows.
type planBatch struct{ rows, misses int }

// planCosts is what the plan's costs are counted from: the model header
// writer's prompts, the embedder's inputs.
type planCosts struct {
	headers interface {
		Cost(schema.Document, schema.Chunk) (models.CallCost, bool)
	}
	embeds bool
	last   string // the previous prompt: the first of a document shares its system prompt with it
}

func (r *run) newPlanCosts(p *PlanResult) *planCosts {
	pc := &planCosts{embeds: !models.Offline(r.embed)}
	if h, ok := r.headers.(interface {
		Cost(schema.Document, schema.Chunk) (models.CallCost, bool)
	}); ok && !models.Offline(r.headers) {
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
func (pc *planCosts) header(p *PlanResult, prev *string, doc schema.Document, c schema.Chunk) {
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

// planChunk counts what c would cost, as the run resolves it (see
// reuse.Resolver): its header (reused, answered by the writer at once, or
// a model call) and its vector (reused, or a text in a batch).
func (r *run) planChunk(ctx context.Context, p *PlanResult, b *planBatch, costs *planCosts, prevPrompt *string, doc schema.Document, prev snapshot.Reuse, c *schema.Chunk) {
	known := true
	switch h := r.reuse.Header(prev, doc, *c); {
	case h.From != reuse.Miss:
		c.ContextHeader = h.Enrichment.Header
		p.HeadersReused++
	case !h.Call:
		en, err := r.headers.Header(ctx, doc, *c) // no call: the writer answers it at once
		if err != nil {
			r.errs.set(err)
			return
		}
		c.ContextHeader = en.Header
	default:
		p.HeaderCalls++
		known = false // the model's header is part of the text embedded
		if costs.headers != nil {
			costs.header(p, prevPrompt, doc, *c)
		}
		c.ContextHeader = extractive.Header(doc.Title, *c, r.cfg.Header.MaxChars) // as long as a model's, for the embedding's count
	}
	b.rows++
	if known {
		_, _, from := r.reuse.Vector(prev, lexical.EmbedInput(*c))
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
	if b.misses == r.cfg.Embed.BatchSize || b.rows == maxBatchRows {
		if b.misses > 0 {
			p.EmbeddingCalls++
		}
		*b = planBatch{}
	}
}
