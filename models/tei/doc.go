// Package tei is the client of Hugging Face text-embeddings-inference
// (TEI), the embedding server many deployments run beside a chat server:
// its model read from /info (the Hub revision as its digest, its input
// window), embeddings from /embed with truncation off and the tokens it
// read. TEI serves one embedding model and no chat: Client is a
// server.Embedder and no server.Chatter, so --embedder tei:MODEL opens it
// and --llm cannot name it. TEI has no /v1/models, so the openai client
// cannot stand in for it (its start-up look-up fails there).
package tei
