// Package models is what the pipeline knows of a model, and nothing that
// talks to one: the HeaderWriter and Embedder interfaces and what they
// return (Enrichment), offline-ness as a method (Offline), Lanes (how a
// writer's calls spread over its servers, for the runner), a plan's
// CallCost and Rate, the defaults a run's config starts from, and
// BackendConfig, the settings a backend is opened with.
//
// The jobs live in packages of their own: extractive (the offline header
// writer), prompt (prompts and answer checks, pure functions), server (a
// model server as the writers use it, with its retries), ollama, openai
// and tei (one client each; tei embeds only), pool (several servers
// behind one), remote (the header writer and embedder backed by a server)
// and backends (the one place that opens them by name). modelfake fakes
// the servers' HTTP APIs in tests.
package models
