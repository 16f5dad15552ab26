// Package dispatch admits a model header writer's calls to its servers
// (models.Lanes), a chunk at a time: one server a document, each server's
// calls in flight as wide as it serves them, documents moved whole when a
// server falls behind or leaves. It starts no goroutine: the run's enrich
// tasks (stages/runner.go) wait in Acquire under a lock, and Release hands
// their places on.
package dispatch
