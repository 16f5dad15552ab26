// Package backends opens a run's header writer and embedder by name
// ("none", "builtin", "ollama:MODEL", "openai:MODEL") with their start-up
// checks: the one place that knows every client. A new backend is a client
// package and one entry in clients (and its address in BackendConfig and a
// flag of cmd/ingest).
package backends
