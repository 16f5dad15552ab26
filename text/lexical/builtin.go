package lexical

import (
	"context"
	"math"
	"math/bits"
	"sync"
)

// Builtin is the offline embedder: a deterministic lexical embedding. Words
// (accents folded, stop words dropped) and their character trigrams are
// hashed into the vector with a sign bit, weighted 1+log(tf), and the vector
// is L2-normalised, so cosine similarity measures shared vocabulary, tolerant
// of inflection ("current"/"currents", "água"/"agua"). It knows nothing of
// meaning or of translation.
//
// The vectors are bit for bit those of the first, string-keyed version
// (TestBuiltinMatchesV1), so it keeps its name and every vector a snapshot
// already holds stays valid for reuse; only the work per text changed.
type Builtin struct {
	dims int
}

// NewBuiltin returns the built-in embedder with dims dimensions.
func NewBuiltin(dims int) *Builtin { return &Builtin{dims: dims} }

// Name identifies the embedder in manifests and cache keys.
func (*Builtin) Name() string { return "builtin-hash-v1" }

// Dims is the width of its vectors.
func (b *Builtin) Dims() int { return b.dims }

// Offline reports that the embedder is free and deterministic, calling no
// server.
func (*Builtin) Offline() bool { return true }

// Embed returns one vector per text, in order. The vectors of one call share
// one allocation: they are written together and dropped together.
func (b *Builtin) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	flat := make([]float32, len(texts)*b.dims)
	pooled := getFeatures()
	f := *pooled // a copy on the stack: its slices change without write barriers
	defer func() { *pooled = f; putFeatures(pooled) }()
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := flat[i*b.dims : (i+1)*b.dims : (i+1)*b.dims]
		f.reset()
		f.addText(t)
		f.project(v)
		out[i] = v
	}
	return out, nil
}

const (
	wordWeight    = 1.0
	trigramWeight = 0.35 // trigrams smooth inflection without drowning whole words
)

// featurePool holds one feature table per embedding worker: the table and
// its buffers grow to the largest text seen and are reused.
var featurePool = sync.Pool{New: func() any { return newFeatures() }}

func getFeatures() *features { return featurePool.Get().(*features) }

// putFeatures keeps a table for reuse unless one huge text grew it: a pool
// entry should not pin tens of megabytes.
func putFeatures(f *features) {
	if len(f.slots) <= maxPooledSlots {
		featurePool.Put(f)
	}
}

const maxPooledSlots = 1 << 16

// project adds the features into v (dims wide, all zero) and L2-normalises
// it. Each feature's weight goes to bucket hash mod dims with the hash's top
// bit as its sign. Float addition is not associative, so a bucket's features
// are summed in the order of their strings, as the first version did by
// sorting every feature: the order only matters in a bucket that receives
// three or more (0+a+b is b+a+0), a few buckets a text, so only those are
// sorted. Buckets no feature reached add nothing to the norm and stay zero,
// so the work is in proportion to the text, not to dims.
func (f *features) project(v []float32) {
	dims := len(v)
	if len(f.sum) != dims {
		f.sum, f.fill, f.touched = make([]float64, dims), make([]uint32, dims), make([]uint64, (dims+63)/64)
	}
	sum, fill, touched := f.sum, f.fill, f.touched
	for i := range f.feats {
		ft := &f.feats[i]
		b := bucketOf(ft.hash, dims)
		ft.bucket = b
		fill[b]++
		touched[b/64] |= 1 << (b % 64)
	}
	crowded := f.crowded[:0]
	for i := range f.feats {
		ft := &f.feats[i]
		if fill[ft.bucket] >= 3 {
			crowded = append(crowded, int32(i))
			continue
		}
		sum[ft.bucket] += ft.weight()
	}
	f.crowded = crowded
	f.sortCrowded()
	for _, i := range crowded {
		ft := &f.feats[i]
		sum[ft.bucket] += ft.weight()
	}
	var norm2 float64
	for w, bits := range touched { // in index order, as the first version summed
		for ; bits != 0; bits &= bits - 1 {
			x := sum[w*64+tz(bits)]
			norm2 += x * x
		}
	}
	inv := 1 / math.Sqrt(norm2)
	for w, bits := range touched {
		for ; bits != 0; bits &= bits - 1 {
			b := w*64 + tz(bits)
			if norm2 != 0 {
				v[b] = float32(sum[b] * inv)
			}
			sum[b], fill[b] = 0, 0
		}
		touched[w] = 0
	}
}

func tz(x uint64) int { return bits.TrailingZeros64(x) }

// bucketOf is hash mod dims; a mask when dims is a power of two (1024, the
// default), which saves a division per feature.
func bucketOf(hash uint64, dims int) int32 {
	if dims&(dims-1) == 0 {
		return int32(hash & uint64(dims-1))
	}
	return int32(hash % uint64(dims))
}

// weight is the signed weight of a feature: 1+log(tf), or tf itself for a
// lone trigram (tf < 1 keeps its small weight); negative when the hash's top
// bit is set.
func (ft *feature) weight() float64 {
	w := sublinear(ft.word, ft.count)
	if ft.hash>>63 == 1 {
		return -w
	}
	return w
}

// weights caches sublinear for small counts, where almost every feature
// falls: math.Log per feature was a tenth of the embedder. Index 1 is words.
var weights = func() (w [2][64]float64) {
	for n := range uint32(len(w[0])) {
		w[0][n], w[1][n] = tfWeight(termFrequency(false, n)), tfWeight(termFrequency(true, n))
	}
	return w
}()

func sublinear(word bool, count uint32) float64 {
	if count < uint32(len(weights[0])) {
		if word {
			return weights[1][count]
		}
		return weights[0][count]
	}
	return tfWeight(termFrequency(word, count))
}

// termFrequency adds the feature's weight once per occurrence, as the first
// version accumulated it: 0.35 added n times is not 0.35·n in floating point.
func termFrequency(word bool, count uint32) float64 {
	step := trigramWeight
	if word {
		step = wordWeight
	}
	var tf float64
	for range count {
		tf += step
	}
	return tf
}

func tfWeight(tf float64) float64 {
	if tf < 1 {
		return tf
	}
	return 1 + math.Log(tf)
}
