// Package modelfake is an in-process model server for tests: it speaks
// Ollama's API (/api/version, /api/tags, /api/show, /api/chat, /api/embed)
// the OpenAI API (/v1/models, /v1/chat/completions, /v1/embeddings) and
// text-embeddings-inference's (/info, /embed: embeddings only, tei.go)
// with deterministic answers, and fails on demand (latency, 500, 429 with
// Retry-After, hangs, malformed JSON, schema-violating answers, wrong vector
// widths, refused inputs, a server that dies after N calls). It counts the
// calls per endpoint and keeps their bodies, so a test can assert batch
// sizes, repairs and calls that must not happen. It can also stand in for a
// server's capacity: a number of slots per model, each keeping the prompt it
// last read, with a request log of what each call waited and reused
// (slots.go); answers that follow the request's JSON schema, enums
// included, or a model that writes free words where no enum holds it
// (schema.go); and token counts from a real BPE tokenizer. Safe for
// concurrent use.
package modelfake
