package lexical

import (
	"context"
	"hash/fnv"
	"math"
	"sort"
)

// Builtin is the offline embedder: a deterministic lexical embedding. Words
// (accents folded, stop words dropped) and their character trigrams are
// hashed into the vector with a sign bit, weighted 1+log(tf), and the vector
// is L2-normalised, so cosine similarity measures shared vocabulary, tolerant
// of inflection ("current"/"currents", "água"/"agua"). It knows nothing of
// meaning or of translation.
type Builtin struct {
	dims int
}

// NewBuiltin returns the built-in embedder with dims dimensions.
func NewBuiltin(dims int) *Builtin { return &Builtin{dims: dims} }

// Name identifies the embedder in manifests and cache keys.
func (*Builtin) Name() string { return "builtin-hash-v1" }

// Dims is the width of its vectors.
func (b *Builtin) Dims() int { return b.dims }

// Embed returns one vector per text, in order.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = b.vector(t)
	}
	return out, nil
}

const (
	wordWeight    = 1.0
	trigramWeight = 0.35 // trigrams smooth inflection without drowning whole words
)

func (b *Builtin) vector(text string) []float32 {
	counts := map[string]float64{}
	for _, w := range Words(text) {
		counts["w:"+w] += wordWeight
		g := "<" + w + ">"
		rs := []rune(g)
		for i := 0; i+3 <= len(rs); i++ {
			counts["g:"+string(rs[i:i+3])] += trigramWeight
		}
	}
	// Sum in a fixed order: float addition is not associative, and the
	// vectors must be bit-identical from run to run.
	feats := make([]string, 0, len(counts))
	for f := range counts {
		feats = append(feats, f)
	}
	sort.Strings(feats)
	v := make([]float64, b.dims)
	for _, f := range feats {
		tf := counts[f]
		h := fnv.New64a()
		h.Write([]byte(f))
		x := h.Sum64()
		w := 1 + math.Log(tf)
		if tf < 1 {
			w = tf // a lone trigram keeps its small weight
		}
		if x>>63 == 1 {
			w = -w
		}
		v[x%uint64(b.dims)] += w
	}
	var norm2 float64
	for _, x := range v {
		norm2 += x * x
	}
	out := make([]float32, b.dims)
	if norm2 == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm2)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}
