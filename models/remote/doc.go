// Package remote is the header writer and the embedder backed by a model
// server (ModelHeaders, ModelEmbedder): one constrained chat call a chunk,
// validated, one repair, the extractive header when that fails too; the
// embeddings in batches with truncation checked; the calls in flight each
// server is given (Lanes, learned by a limiter); a plan's per-call cost and
// a probe of a server's rates.
package remote
