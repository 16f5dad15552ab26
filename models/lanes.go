package models

import (
	"context"
)

// Lanes is how a header writer's calls are spread over its servers, for
// the runner that schedules them: a document's calls go to one server (its
// prompt cache holds the document), and each server gets the calls in
// flight it serves. ModelHeaders implements it; the runner sends a call to
// server i with OnServer.
type Lanes interface {
	// Servers is how many servers answer the writer's calls.
	Servers() int
	// Route names the server a document's calls should go to now: a
	// stable hash of key among the healthy servers, so reruns and shards
	// agree, and another one only when that one is slow, resting or gone.
	Route(key string) int
	// Width is how many calls server i takes at once now (0: none, it is
	// slow, resting or gone): learned at run time, or what the server says
	// of itself, or the user's; never above the cap.
	Width(i int) int
	// Documents is how many documents server i should work on at once:
	// one a slot (a slot's prompt cache holds one document): as many as
	// its width once a round has shown a slot for each call, one until
	// then (a server with one slot answers a document's chunks in turn).
	Documents(i int) int
	// Fix sets the calls in flight for good: total in all, spread over
	// the servers (the user's llm_concurrency).
	Fix(total int)
	// MaxWidth is the most calls in flight Width can give all servers
	// together.
	MaxWidth() int
}

type serverKey struct{}

// routed is where the runner sent a call: the server, and the document's
// key, so a call that server cannot take fails over where Route sends the
// document next.
type routed struct {
	server int
	key    string
}

// OnServer sends the calls made with the returned context to server i of
// the writer, when it can take them (the pool fails over otherwise).
func OnServer(ctx context.Context, i int) context.Context {
	return context.WithValue(ctx, serverKey{}, routed{server: i})
}

// ForDocument is OnServer for a call of the document key: when server i
// cannot take it, it goes where Route sends the document now.
func ForDocument(ctx context.Context, key string, i int) context.Context {
	return context.WithValue(ctx, serverKey{}, routed{server: i, key: key})
}

// ServerOf is the server OnServer named; -1: any.
func ServerOf(ctx context.Context) int {
	if r, ok := ctx.Value(serverKey{}).(routed); ok {
		return r.server
	}
	return -1
}

// DocumentOf is the document ForDocument named ("": none).
func DocumentOf(ctx context.Context) string {
	r, _ := ctx.Value(serverKey{}).(routed)
	return r.key
}

// Calls in flight per server, each setting with its reason.
const (
	// DefaultStartWidth is where a server's calls in flight start: Ollama
	// answers one call at a time by default (OLLAMA_NUM_PARALLEL=1), and a
	// second one waiting keeps its slot from idling between two calls.
	DefaultStartWidth = 2
	// DefaultMaxWidth caps what a server is given however well it keeps
	// up: a batching server (vLLM, llama-server with many slots) rarely
	// gains beyond it on one run's prompts, and a mistaken measure cannot
	// flood it.
	DefaultMaxWidth = 32
)
