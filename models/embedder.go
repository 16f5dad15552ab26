package models

import (
	"context"

	"github.com/ocean-safety/ingest/text/lexical"
)

// Defaults of what a model backend produces, each with its reason. A run's
// config starts from them.
const (
	DefaultDims        = 1024 // bge-m3's size, the consumers' vector index column
	MaxDims            = 1024 // the consumers' vector index refuses wider vectors
	DefaultBatchSize   = 10   // the consumers' embedder batch size
	DefaultHeaderChars = 200  // one line in a prompt; long enough for title › section: sentence
)

// Embedder turns texts into vectors, in one call per batch. A model server
// and the built-in embedder sit behind it alike.
type Embedder interface {
	// Name identifies the embedder and its model in the manifest and cache keys.
	Name() string
	Dims() int
	// Embed returns one vector of Dims() floats per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

var _ Embedder = (*lexical.Builtin)(nil)

// Offline reports whether x is one of the free, deterministic defaults (the
// extractive header writer, the built-in embedder), whose results are not
// worth journaling and that call no server.
func Offline(x any) bool {
	o, ok := x.(interface{ Offline() bool })
	return ok && o.Offline()
}
