// Package ollama is the client of Ollama's API: chat with a JSON-schema
// answer, embeddings (decoded by a streaming decoder of its own), model
// look-up with digest and context window, the server's timings. The only
// package that imports Ollama's module.
package ollama
