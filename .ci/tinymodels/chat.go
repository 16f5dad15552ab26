package main

import (
	"fmt"
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

// The chat model is a llama with one layer whose attention and feed-forward
// outputs are scaled down to almost nothing, so the residual stream carries
// the current token's embedding and the output layer reads it as a bigram
// table we write by hand:
//
//   - dimension 0 of every embedding is 1, and the output layer's weight on
//     it is a per-token bias: end-of-sequence, '}', ']' and '"' rank first,
//     so under a JSON-schema grammar an object or array closes as soon as the
//     grammar lets it and the answer ends;
//   - inside a string the chain below spells chatString: each of its bytes
//     has a feature dimension that points at the next, strong enough to beat
//     the biases, so every free string reads "Tiny model" and then closes.
//
// The other dimensions are random and small: they only break ties among
// tokens that neither the bias nor the chain ranks.
const (
	chatDim     = 32
	chatHeads   = 4
	chatFF      = 64
	chatLayers  = 1
	chatContext = 16384 // a prompt is one token per byte
	chatString  = `"Tiny model"`

	chatChainWeight = 30 // above every bias, so the chain wins inside strings
	chatNoise       = 0.05
)

// chatBias ranks the tokens that close an answer; every other token has 0.
var chatBias = map[int]float32{
	chatEOS:        12,
	byteToken('}'): 10,
	byteToken(']'): 9,
	byteToken('"'): 8,
	byteToken('{'): 4,
	byteToken(','): 2,
}

// The vocabulary is SentencePiece's three specials and its 256 byte-fallback
// tokens, so any text tokenizes, one token per byte.
const (
	chatUnk   = 0
	chatBOS   = 1
	chatEOS   = 2
	chatVocab = 3 + 256
)

func byteToken(b byte) int { return 3 + int(b) }

const chatModelfile = `# A tiny random-weight chat model for the real-Ollama test tier (ci/tinymodels).
FROM %s
TEMPLATE """{{- range .Messages }}{{ .Role }}: {{ .Content }}
{{ end }}assistant: """
# One thread: two threads on two cores stall for seconds.
PARAMETER num_thread 1
# A safety net: an answer closes after a few dozen tokens.
PARAMETER num_predict 256
`

func chatVocabulary() (tokens []string, types []int32, scores []float32) {
	tokens = []string{"<unk>", "<s>", "</s>"}
	types = []int32{2, 3, 3} // unknown, control, control
	for b := range 256 {
		tokens = append(tokens, fmt.Sprintf("<0x%02X>", b))
		types = append(types, 6) // byte
	}
	return tokens, types, make([]float32, len(tokens))
}

// chatChain maps each byte of chatString but the last to its feature
// dimension and its successor.
func chatChain() (feature map[int]int, next map[int]int) {
	feature, next = map[int]int{}, map[int]int{}
	s := chatString
	for i := 0; i+1 < len(s); i++ {
		t := byteToken(s[i])
		if _, dup := feature[t]; dup {
			panic(fmt.Sprintf("chatString repeats %q: a bigram chain needs distinct bytes", s[i]))
		}
		feature[t] = 1 + i
		next[t] = byteToken(s[i+1])
	}
	return feature, next
}

func writeChat(f *os.File) error {
	tokens, types, scores := chatVocabulary()
	kv := ggml.KV{
		"general.architecture":                   "llama",
		"general.name":                           "tiny-chat",
		"general.file_type":                      uint32(0), // all F32
		"llama.context_length":                   uint32(chatContext),
		"llama.embedding_length":                 uint32(chatDim),
		"llama.block_count":                      uint32(chatLayers),
		"llama.feed_forward_length":              uint32(chatFF),
		"llama.attention.head_count":             uint32(chatHeads),
		"llama.attention.head_count_kv":          uint32(chatHeads),
		"llama.rope.dimension_count":             uint32(chatDim / chatHeads),
		"llama.rope.freq_base":                   float32(10000),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.vocab_size":                       uint32(chatVocab),
		"tokenizer.ggml.model":                   "llama",
		"tokenizer.ggml.tokens":                  tokens,
		"tokenizer.ggml.token_type":              types,
		"tokenizer.ggml.scores":                  scores,
		"tokenizer.ggml.unknown_token_id":        uint32(chatUnk),
		"tokenizer.ggml.bos_token_id":            uint32(chatBOS),
		"tokenizer.ggml.eos_token_id":            uint32(chatEOS),
		"tokenizer.ggml.add_bos_token":           true,
		"tokenizer.ggml.add_eos_token":           false,
	}
	return ggml.WriteGGUF(f, kv, chatTensors(newWeights(1)))
}

func chatTensors(w *weights) []*ggml.Tensor {
	feature, next := chatChain()
	free := 1 + len(feature) // the first random dimension
	if free >= chatDim {
		panic("chatString is too long for chatDim")
	}

	embd := make([]float32, 0, chatDim*chatVocab)
	out := make([]float32, 0, chatDim*chatVocab)
	for t := range chatVocab {
		e := make([]float32, chatDim)
		e[0] = 1
		if d, ok := feature[t]; ok {
			e[d] = 1
		}
		copy(e[free:], w.normal(chatDim-free, chatNoise))
		embd = append(embd, e...)

		o := make([]float32, chatDim)
		o[0] = chatBias[t]
		copy(o[free:], w.normal(chatDim-free, 1))
		out = append(out, o...)
	}
	for src, dst := range next {
		out[dst*chatDim+feature[src]] = chatChainWeight
	}

	d, ff := uint64(chatDim), uint64(chatFF)
	ts := []*ggml.Tensor{
		f32("token_embd.weight", embd, d, chatVocab),
		f32("output_norm.weight", fill(chatDim, 1), d),
		f32("output.weight", out, d, chatVocab),
	}
	for i := range chatLayers {
		blk := func(name string) string { return fmt.Sprintf("blk.%d.%s.weight", i, name) }
		ts = append(ts,
			f32(blk("attn_norm"), fill(chatDim, 1), d),
			f32(blk("attn_q"), w.normal(chatDim*chatDim, 0.2), d, d),
			f32(blk("attn_k"), w.normal(chatDim*chatDim, 0.2), d, d),
			f32(blk("attn_v"), w.normal(chatDim*chatDim, 0.2), d, d),
			f32(blk("attn_output"), w.normal(chatDim*chatDim, 0.01), d, d), // keeps the bigram table on top
			f32(blk("ffn_norm"), fill(chatDim, 1), d),
			f32(blk("ffn_gate"), w.normal(chatDim*chatFF, 0.2), d, ff),
			f32(blk("ffn_up"), w.normal(chatDim*chatFF, 0.2), d, ff),
			f32(blk("ffn_down"), w.normal(chatFF*chatDim, 0.01), ff, d),
		)
	}
	return ts
}
