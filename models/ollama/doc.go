// Package ollama is the client of Ollama's API, over net/http: chat with a
// JSON-schema answer, embeddings (decoded by a streaming decoder of its
// own), model look-up with digest and context window, the server's
// timings, and requests signed with Ollama's key as its own client signs
// them (sign.go). It imports no module of Ollama's.
package ollama
