// Package pool spreads one kind of server's calls over several of them
// behind the interfaces they implement (server.Server, and Chatter and
// Embedder as they serve), the way restic wraps a backend: a document's
// header calls by rendezvous hash, embeddings to the least busy by
// latency, a trial call hedged on a server of unknown latency, a server
// that fails resting while the others go on, one model digest for all.
package pool
