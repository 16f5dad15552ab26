package models

import (
	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/schema"
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

// answerSkeleton is the shortest answer around a header.
const answerSkeleton = `{"context_header": ""}`

// Cost is what c's header call would send, and false when the writer makes
// no call for it (a table row, a chunk that reads as instructions).
func (h *ModelHeaders) Cost(doc schema.Document, c schema.Chunk) (CallCost, bool) {
	if c.Element == schema.ElementTableRow || len(instructionSpans(c.Text)) > 0 {
		return CallCost{}, false
	}
	user := h.userMessage(h.preps.get(doc), doc, c)
	header := ExtractiveHeader(doc.Title, c, h.maxChars)
	return CallCost{Prompt: h.system + "\n" + user, AnswerTokens: PlanTokens.Count(answerSkeleton) + PlanTokens.Count(header)}, true
}
