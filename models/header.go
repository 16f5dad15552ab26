package models

import (
	"context"

	"github.com/ocean-safety/ingest/schema"
)

// HeaderWriter enriches a chunk: a one-line context header (the document and
// section it comes from and what it is about, for a reader or a small model
// that sees the chunk alone) and, where a model writes it, extracted fields.
type HeaderWriter interface {
	// Name identifies the writer (and its model digest and prompt version) in
	// the manifest and in cache keys.
	Name() string
	// Header enriches one chunk. An error stops the run (a dead server); an
	// answer the writer cannot use is not an error: it falls back to the
	// extractive header and says so in Enrichment.Source and Reject.
	Header(ctx context.Context, doc schema.Document, c schema.Chunk) (Enrichment, error)
	// Calls reports whether Header asks a model for c: false when the
	// writer answers c itself, at once and without a call (offline, or a
	// chunk it never sends). A plan counts its calls by it.
	Calls(c schema.Chunk) bool
}

// Enrichment is what a HeaderWriter produced for one chunk.
type Enrichment struct {
	Header string
	Source string // schema.HeaderExtractive, HeaderModel or HeaderExtractiveFallback
	Fields schema.Fields
	// Thresholds are the model's proposals; the pipeline keeps only those the
	// units parser finds in the chunk's text (grounded), and counts the rest.
	Thresholds []schema.ProposedThreshold
	// Reject is the raw answer that could not be used, for the report, and
	// RejectReasons why (the Reason constants); a chunk not sent at all has
	// reasons and no answer.
	Reject        string
	RejectReasons []string
	Calls         int // model calls made, repairs included
}
