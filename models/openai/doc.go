// Package openai is the client of an OpenAI-compatible API (OpenAI,
// vLLM, llama-server, LM Studio…): chat completions in strict JSON-schema
// mode, embeddings, model look-up, llama-server's slots. It is written by
// hand rather than with the openai-go SDK; Client's comment says
// why.
package openai
