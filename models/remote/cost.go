package remote

import (
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/schema"
)

// answerSkeleton is the shortest answer around a header.
const answerSkeleton = `{"context_header": ""}`

// Cost is what c's header call would send, and false when the writer makes
// no call for it (a table row, a chunk that reads as instructions).
func (h *ModelHeaders) Cost(doc schema.Document, c schema.Chunk) (models.CallCost, bool) {
	if !h.Calls(c) {
		return models.CallCost{}, false
	}
	user := h.userMessage(h.preps.Get(doc), doc, c)
	header := extractive.Header(doc.Title, c, h.maxChars)
	return models.CallCost{Prompt: h.system + "\n" + user, AnswerTokens: models.PlanTokens.Count(answerSkeleton) + models.PlanTokens.Count(header)}, true
}
