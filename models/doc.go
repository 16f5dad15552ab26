// Package models is everything that talks to a model: the HeaderWriter and
// Embedder interfaces, the offline extractive header writer, the Ollama and
// OpenAI-compatible clients with their start-up checks, retries and back-off,
// the prompts, and the validation of every answer. modelfake is an
// in-process fake of both servers' HTTP APIs for tests.
package models
