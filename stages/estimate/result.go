package estimate

import (
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// Result is what a run would do, counted without doing it.
type Result struct {
	Documents      int    `json:"documents"`
	Rejected       int    `json:"rejected"`
	Chunks         int    `json:"chunks"`
	Bytes          int64  `json:"bytes"`           // of the documents read (0 when Unchanged: none is parsed)
	HeaderCalls    int    `json:"header_calls"`    // chunks whose header a model would write
	HeadersReused  int    `json:"headers_reused"`  // from the previous snapshot or the journal
	EmbeddingCalls int    `json:"embedding_calls"` // batches the embedder would be sent
	VectorsReused  int    `json:"vectors_reused"`
	Previous       string `json:"previous,omitempty"` // the snapshot reused from
	// Unchanged: the corpus's bytes and the run's making (build, config,
	// header writer, embedder) are the previous snapshot's, so the run
	// republishes it without reading a document or calling a model; the
	// counts are the previous snapshot's.
	Unchanged bool `json:"unchanged,omitempty"`
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
func (p *Result) Models() (models.HeaderWriter, models.Embedder) { return p.headers, p.embed }

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
// call at a time: given (--plan-rate), the defaults (DefaultRates), or
// measured by one call to each server (--probe).
type Rate struct {
	Prefill float64 `json:"prefill,omitempty"`  // prompt tokens a second
	Decode  float64 `json:"decode,omitempty"`   // answer tokens a second
	PerCall float64 `json:"per_call,omitempty"` // seconds a call, for a server that says nothing of its tokens' time
	Servers int     `json:"servers"`            // the servers the calls are spread over
	From    string  `json:"from"`               // RatesGiven, RatesDefault or RatesProbe
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
