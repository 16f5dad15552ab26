package reuse

import (
	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// From is where a chunk's header or vector comes from.
type From int

// Where earlier work comes from, in the order it is looked for.
const (
	Miss         From = iota // nowhere: written or embedded by this run
	FromPrevious             // the previous snapshot
	FromJournal              // the journal of an interrupted run
)

// Resolver looks a chunk's header and vector up under the run's cache
// keys. The journal holds what costs, a model's headers and vectors: an
// offline writer's or embedder's are neither looked up there nor put.
type Resolver struct {
	keys                           artifacts.CacheKeys
	headers                        models.HeaderWriter
	journal                        *Journal // nil: none
	journalHeaders, journalVectors bool
	dims                           int // the embedder's: a journaled vector of another width is not this run's
	retryRejected                  bool
}

// NewResolver returns the resolver of a run with these cache keys, writer and
// embedder, over journal (nil: none). retryRejected asks again for the
// headers the previous snapshot holds as fallbacks (--retry-rejected).
func NewResolver(keys artifacts.CacheKeys, headers models.HeaderWriter, embed models.Embedder, journal *Journal, retryRejected bool) *Resolver {
	return &Resolver{keys: keys, headers: headers, journal: journal,
		journalHeaders: !models.Offline(headers), journalVectors: !models.Offline(embed), dims: embed.Dims(), retryRejected: retryRejected}
}

// Header is what a chunk's header resolves to.
type Header struct {
	Key        string     // the chunk's header cache key
	From       From       // Miss: the writer writes it
	Enrichment Enrichment // the header and fields reused (From is not Miss)
	// Call is a miss the writer asks a model for; a miss without one it
	// answers at once (offline, a table row, instruction text).
	Call bool
}

// Header resolves c's header, prev being what the previous snapshot offers
// c's document. A fallback is reused like any answer (asking again would
// pay for the same answer), except one of the previous snapshot under
// --retry-rejected; the journal's are this publish cycle's own answers,
// retried already if the flag was given, so a resumed run repeats no call
// either way.
func (r *Resolver) Header(prev Offer, doc schema.Document, c schema.Chunk) Header {
	h := Header{Key: HeaderKey(r.keys.Header, doc.Title, c)}
	if e, ok := prev.Headers[h.Key]; ok && !(e.Fallback() && r.retryRejected) {
		h.From, h.Enrichment = FromPrevious, e
		return h
	}
	if r.journal != nil && r.journalHeaders {
		if e, ok := r.journal.Header(h.Key); ok {
			h.From, h.Enrichment = FromJournal, e
			return h
		}
	}
	h.Call = r.headers.Calls(c)
	return h
}

// Vector resolves the vector of a chunk whose embed input is input
// (lexical.EmbedInput), prev being what the previous snapshot offers its
// document; it returns the vector's cache key, and the vector unless a
// miss.
func (r *Resolver) Vector(prev Offer, input string) (key string, v []float32, from From) {
	key = VectorKey(r.keys.Vector, input)
	if v, ok := prev.Vectors[key]; ok {
		return key, v, FromPrevious
	}
	if r.journal != nil && r.journalVectors {
		if v, ok := r.journal.Vector(key, r.dims); ok {
			return key, v, FromJournal
		}
	}
	return key, nil, Miss
}

// PutHeader journals a header the writer wrote under key, when the journal
// keeps the writer's.
func (r *Resolver) PutHeader(key string, e Enrichment) error {
	if r.journal == nil || !r.journalHeaders {
		return nil
	}
	return r.journal.PutHeader(key, e)
}

// PutVector journals a vector the embedder made under key, when the
// journal keeps the embedder's.
func (r *Resolver) PutVector(key string, v []float32) error {
	if r.journal == nil || !r.journalVectors {
		return nil
	}
	return r.journal.PutVector(key, v)
}
