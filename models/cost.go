package models

import (
	"github.com/ocean-safety/ingest/text/lexical"
)

// A plan counts what a run's header calls would send, before any is made:
// the prompts are the ones the calls would send, counted in estimated
// tokens, and the answer is estimated from the header it would carry.

// CallCost is one header call as a plan counts it.
type CallCost struct {
	// Prompt is what the model reads: the system prompt, then the user
	// message; a prefix cache can skip what it shares with the previous
	// prompt on the same slot.
	Prompt string
	// AnswerTokens is the answer's tokens, estimated: a header as long as
	// the extractive one, in the shortest answer the schema allows.
	AnswerTokens int
}

// PlanTokens is what a plan counts tokens with.
var PlanTokens lexical.Counter = lexical.QuarterTokens{}

// Rate is how fast one server read and wrote a probe call.
type Rate struct {
	Prefill float64 // prompt tokens a second (0: the server did not say)
	Decode  float64 // answer tokens a second (0: the server did not say)
	PerCall float64 // the call's seconds, for a server that says nothing of its tokens' time
}
