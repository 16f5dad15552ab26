package main

import (
	"fmt"
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

// The embedding model is a one-layer BERT with random weights, mean pooling
// and L2-normalised output: Ollama serves a GGUF with bert.pooling_type as an
// embedding model. Its vectors mean nothing, but different texts give
// different vectors, which is all the tests ask of them.
const (
	embedDim     = 64
	embedHeads   = 4
	embedFF      = 128
	embedLayers  = 1
	embedContext = 8192 // the models package asks for at most 8192 (maxEmbedWindow); one token per character
	embedMean    = 1    // pooling.TypeMean
)

const embedModelfile = `# A tiny random-weight embedding model for the real-Ollama test tier (ci/tinymodels).
FROM %s
# One thread: two threads on two cores stall for seconds.
PARAMETER num_thread 1
`

// embedChars are the characters the WordPiece vocabulary knows, after
// lower-casing: enough for English and Portuguese chunks; anything else is a
// word of [UNK].
const embedChars = "abcdefghijklmnopqrstuvwxyz0123456789" +
	"àáâãäçèéêëìíîïñòóôõöùúûüý" +
	".,;:!?'\"()[]{}<>-_/\\|#*+=%&@$~^`" +
	"°º–—‘’“”«»›…"

func embedVocabulary() (tokens []string, types []int32, scores []float32) {
	tokens = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}
	types = []int32{3, 2, 3, 3, 3} // control, unknown, control...
	// Ollama's WordPiece marks a word's first piece with "▁" (as GGUF
	// vocabularies do) where BERT marks the others with "##".
	for _, r := range embedChars {
		tokens = append(tokens, "▁"+string(r), string(r))
		types = append(types, 1, 1)
	}
	return tokens, types, make([]float32, len(tokens))
}

func writeEmbed(f *os.File) error {
	tokens, types, scores := embedVocabulary()
	kv := ggml.KV{
		"general.architecture":              "bert",
		"general.name":                      "tiny-embed",
		"general.file_type":                 uint32(0), // all F32
		"bert.context_length":               uint32(embedContext),
		"bert.embedding_length":             uint32(embedDim),
		"bert.block_count":                  uint32(embedLayers),
		"bert.feed_forward_length":          uint32(embedFF),
		"bert.attention.head_count":         uint32(embedHeads),
		"bert.attention.layer_norm_epsilon": float32(1e-12),
		"bert.attention.causal":             false,
		"bert.pooling_type":                 uint32(embedMean),
		"tokenizer.ggml.model":              "bert",
		"tokenizer.ggml.tokens":             tokens,
		"tokenizer.ggml.token_type":         types,
		"tokenizer.ggml.scores":             scores,
		"tokenizer.ggml.padding_token_id":   uint32(0),
		"tokenizer.ggml.unknown_token_id":   uint32(1),
		"tokenizer.ggml.cls_token_id":       uint32(2),
		"tokenizer.ggml.separator_token_id": uint32(3),
		"tokenizer.ggml.mask_token_id":      uint32(4),
		"tokenizer.ggml.bos_token_id":       uint32(2),
		"tokenizer.ggml.eos_token_id":       uint32(3),
		"tokenizer.ggml.token_type_count":   uint32(2),
		"tokenizer.ggml.add_bos_token":      true,
		"tokenizer.ggml.add_eos_token":      true,
	}
	return ggml.WriteGGUF(f, kv, embedTensors(newWeights(2), len(tokens)))
}

func embedTensors(w *weights, vocab int) []*ggml.Tensor {
	d, v := uint64(embedDim), uint64(vocab)
	norm := func(name string) []*ggml.Tensor {
		return []*ggml.Tensor{
			f32(name+".weight", fill(embedDim, 1), d),
			f32(name+".bias", fill(embedDim, 0), d),
		}
	}
	linear := func(name string, in, out int, std float64) []*ggml.Tensor {
		return []*ggml.Tensor{
			f32(name+".weight", w.normal(in*out, std), uint64(in), uint64(out)),
			f32(name+".bias", w.normal(out, std), uint64(out)),
		}
	}

	ts := []*ggml.Tensor{
		f32("token_embd.weight", w.normal(embedDim*vocab, 1), d, v),
		f32("token_types.weight", w.normal(embedDim*2, 0.1), d, 2),
		f32("position_embd.weight", w.normal(embedDim*embedContext, 0.1), d, embedContext),
	}
	ts = append(ts, norm("token_embd_norm")...)
	for i := range embedLayers {
		blk := fmt.Sprintf("blk.%d.", i)
		ts = append(ts, linear(blk+"attn_q", embedDim, embedDim, 0.1)...)
		ts = append(ts, linear(blk+"attn_k", embedDim, embedDim, 0.1)...)
		ts = append(ts, linear(blk+"attn_v", embedDim, embedDim, 0.1)...)
		ts = append(ts, linear(blk+"attn_output", embedDim, embedDim, 0.1)...)
		ts = append(ts, norm(blk+"attn_output_norm")...)
		ts = append(ts, linear(blk+"ffn_up", embedDim, embedFF, 0.1)...)
		ts = append(ts, linear(blk+"ffn_down", embedFF, embedDim, 0.1)...)
		ts = append(ts, norm(blk+"layer_output_norm")...)
	}
	return ts
}
