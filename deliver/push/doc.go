// Package push delivers a snapshot to a knowledge service's own ingest API
// (KB-005's "memory Layer 2"), by the contract of docs/push.md and
// docs/push.schema.json: document versions with their context and chunks
// (text, header, fields, thresholds, embedding) in gzip JSON batches of at
// most ten chunks, and deletes of removed documents and superseded
// versions as their own operation.
//
// A push sends only what the destination lacks: a state folder per
// destination (state.json) records what it acknowledged, so an unchanged
// night sends nothing. Every request carries an Idempotency-Key, the
// SHA-256 of its body, and is journaled when acknowledged (journal.jsonl),
// so a killed push resumes at the first batch not acknowledged and never
// sends an acknowledged one again. A 202 answer's task is polled; 429 and
// 5xx are retried honouring Retry-After; the token goes to the
// destination's host only and is never printed; audit.jsonl records what
// was pushed and deleted, with hashes, never an embedding.
//
// Destination is the push as a deliver.Destination; Push and PlanPush
// open the snapshot themselves. It reads snapshots through deliver; its
// goroutines start in one file, runner.go.
package push
