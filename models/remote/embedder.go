package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/sentence"
)

const (
	maxEmbedWindow = 8192 // tokens asked of an embedding model at most: bge-m3's window, far above a chunk
	// truncationRatio: a server that counts fewer than half the tokens we
	// estimate (lexical.ApproxTokens is within about 15%) has cut something.
	truncationRatio = 0.5
	excerptChars    = 80 // of an input, in errors and the truncation report
)

var _ models.Embedder = (*ModelEmbedder)(nil)

// ModelEmbedder is the embedder backed by a model server (Ollama or
// OpenAI-compatible). It sends batches of at most embed.batch_size texts,
// checks every vector's width, bisects a batch the server refuses to name
// the input at fault, and records inputs the server may have cut. Safe for
// concurrent use.
type ModelEmbedder struct {
	name, where, model string
	dims, batch        int
	window             int // the model's context window, sent as num_ctx; 0: unknown
	server             server.Embedder
	retry              *server.Retrier

	calls  atomic.Int64
	usage  usageTally
	mu     sync.Mutex
	truncs []schema.Truncation
}

// Name implements Embedder: backend, model and digest.
func (e *ModelEmbedder) Name() string { return e.name }

// Dims implements Embedder.
func (e *ModelEmbedder) Dims() int { return e.dims }

// Stats returns what the embedder has done so far.
func (e *ModelEmbedder) Stats() schema.ModelStats {
	return schema.ModelStats{Calls: e.calls.Load(), Retries: e.retry.Retries.Load(), Endpoints: endpointStats(e.server), Usage: e.usage.snapshot()}
}

// Embed implements Embedder.
func (e *ModelEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		vecs, err := e.embedBatch(ctx, texts[start:min(start+e.batch, len(texts))], start)
		if err != nil {
			return nil, fmt.Errorf("%s: embed: %w", e.where, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// InputError is an input the server refuses, found by bisecting its batch.
type InputError struct {
	Index   int    // in the texts given to Embed
	Excerpt string // the input's first characters
	Err     error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("input %d (%q): %v", e.Index, e.Excerpt, e.Err)
}

func (e *InputError) Unwrap() error { return e.Err }

// embedBatch embeds texts (texts[0] is input offset of the Embed call). A
// batch the server refuses as invalid is split in halves until the bad
// input stands alone; other failures end the call as they are.
func (e *ModelEmbedder) embedBatch(ctx context.Context, texts []string, offset int) ([][]float32, error) {
	res, err := e.call(ctx, texts)
	if err == nil {
		e.checkTruncation(texts, res.Tokens)
		return res.Vectors, nil
	}
	if !server.InvalidInput(err) || ctx.Err() != nil {
		return nil, err
	}
	if len(texts) == 1 {
		return nil, &InputError{Index: offset, Excerpt: sentence.Cap(strings.Join(strings.Fields(texts[0]), " "), excerptChars), Err: err}
	}
	mid := len(texts) / 2
	left, err := e.embedBatch(ctx, texts[:mid], offset)
	if err != nil {
		return nil, err
	}
	right, err := e.embedBatch(ctx, texts[mid:], offset+mid)
	if err != nil {
		return nil, err
	}
	return append(left, right...), nil
}

// call makes one retried server call and checks its shape: one vector per
// text (else a malformed answer, retried) of Dims() finite floats (else
// final: the model is not the one the run started with).
func (e *ModelEmbedder) call(ctx context.Context, texts []string) (server.EmbedResult, error) {
	var res server.EmbedResult
	err := e.retry.Do(ctx, func(ctx context.Context) error {
		r, err := e.server.Embed(ctx, server.EmbedRequest{Model: e.model, Texts: texts, NumCtx: e.window, Dims: e.dims})
		if err != nil {
			return err
		}
		if len(r.Vectors) != len(texts) {
			return fmt.Errorf("%d vectors for %d inputs", len(r.Vectors), len(texts))
		}
		for i, v := range r.Vectors {
			if e.dims > 0 && len(v) != e.dims {
				return server.Final(fmt.Errorf("vector %d has %d dimensions, want %d: the model behind --embedder changed during the run", i, len(v), e.dims))
			}
			if slices.ContainsFunc(v, func(x float32) bool { return math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) }) {
				return server.Final(fmt.Errorf("vector %d has a NaN or infinite value", i))
			}
		}
		res = r
		return nil
	})
	if err == nil {
		e.calls.Add(1)
		if res.Tokens > 0 {
			e.usage.add(schema.Usage{Calls: 1, PromptTokens: int64(res.Tokens)})
		}
	}
	return res, err
}

// probe embeds one text to learn the model's width.
func (e *ModelEmbedder) probe(ctx context.Context) (server.EmbedResult, error) {
	res, err := e.call(ctx, []string{probeText})
	if err == nil && len(res.Vectors[0]) == 0 {
		err = errors.New("the server returned an empty vector")
	}
	return res, err
}

// Truncations returns the inputs the server may have cut so far, in a
// stable order (concurrent batches finish in any order).
func (e *ModelEmbedder) Truncations() []schema.Truncation {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := slices.Clone(e.truncs)
	slices.SortFunc(out, func(a, b schema.Truncation) int { return strings.Compare(a.InputHash, b.InputHash) })
	return out
}

func (e *ModelEmbedder) checkTruncation(texts []string, serverTokens int) {
	est := make([]int, len(texts))
	total, longest := 0, 0
	for i, t := range texts {
		est[i] = lexical.ApproxTokens{}.Count(t)
		total += est[i]
		if est[i] > est[longest] {
			longest = i
		}
	}
	var cut []int
	for i := range texts {
		if e.window > 0 && est[i] > e.window {
			cut = append(cut, i)
		}
	}
	if len(cut) == 0 && serverTokens > 0 && float64(serverTokens) < truncationRatio*float64(total) {
		cut = append(cut, longest)
	}
	if len(cut) == 0 {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, i := range cut {
		sum := sha256.Sum256([]byte(texts[i]))
		e.truncs = append(e.truncs, schema.Truncation{
			Excerpt: sentence.Cap(strings.Join(strings.Fields(texts[i]), " "), excerptChars), InputHash: hex.EncodeToString(sum[:]),
			EstimatedTokens: est[i], Window: e.window, BatchTokens: serverTokens,
		})
	}
}

// endpointStats is the pool's account, when s is a pool.
func endpointStats(s any) []schema.EndpointStats {
	if p, ok := s.(interface{ Stats() []schema.EndpointStats }); ok {
		return p.Stats()
	}
	return nil
}
