package main

import (
	"encoding/binary"
	"io"
	"math"
	"math/rand/v2"

	"github.com/ollama/ollama/fs/ggml"
)

// f32 is a float32 tensor for ggml.WriteGGUF. Shape is in ggml order: the
// first dimension varies fastest (a [in, out] matrix holds one row of `in`
// values per output).
func f32(name string, data []float32, shape ...uint64) *ggml.Tensor {
	n := uint64(1)
	for _, s := range shape {
		n *= s
	}
	if n != uint64(len(data)) {
		panic(name + ": data does not fill its shape")
	}
	return &ggml.Tensor{Name: name, Kind: uint32(ggml.TensorTypeF32), Shape: shape, WriterTo: floats(data)}
}

type floats []float32

func (fs floats) WriteTo(w io.Writer) (int64, error) {
	b := make([]byte, 4*len(fs))
	for i, f := range fs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	n, err := w.Write(b)
	return int64(n), err
}

// weights draws tensors from one seeded generator, so a model is the same
// bytes every time it is written.
type weights struct{ rng *rand.Rand }

func newWeights(seed uint64) *weights {
	return &weights{rng: rand.New(rand.NewPCG(seed, 0x696e67657374))} // "ingest"
}

// normal returns n values drawn from N(0, std²).
func (w *weights) normal(n int, std float64) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(w.rng.NormFloat64() * std)
	}
	return out
}

func fill(n int, v float32) []float32 {
	out := make([]float32, n)
	for i := range out {
		out[i] = v
	}
	return out
}
