package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/goccy/go-yaml"

	"github.com/ocean-safety/ingest/schema"
)

// Defaults, each with its reason.
const (
	defaultChunkMax    = 700  // characters: a paragraph or two, what a small reader model quotes well
	defaultEmbedDims   = 1024 // bge-m3's size, the consumers' vector index column
	defaultBatchSize   = 10   // the consumers' embedder batch size
	defaultHeaderChars = 200  // one line in a prompt; long enough for title › section: sentence
	maxEmbedDims       = 1024 // the consumers' vector index refuses wider vectors
	defaultTopK        = 5    // what the answering service puts in a prompt
)

// Config is everything a run is shaped by. The YAML file and the flags both
// fill it; Validate checks it before any work starts.
type Config struct {
	Corpus  string `yaml:"corpus" json:"-"`
	Out     string `yaml:"out" json:"-"`
	Workers int    `yaml:"workers" json:"-"`
	// LLMConcurrency and EmbedConcurrency bound the calls in flight to the
	// header writer and the embedder (0: Workers), so a model server's
	// request slots stay full without queueing calls into their timeouts.
	LLMConcurrency   int  `yaml:"llm_concurrency" json:"-"`
	EmbedConcurrency int  `yaml:"embed_concurrency" json:"-"`
	Strict           bool `yaml:"strict" json:"-"`
	// Prev is the snapshot to reuse headers and vectors from; "" means the
	// one already at Out, if any.
	Prev string `yaml:"prev" json:"-"`

	TenantID    string `yaml:"tenant_id" json:"tenant_id"`
	SourceLabel string `yaml:"source_label" json:"source_label"`
	DefaultLang string `yaml:"default_lang" json:"default_lang"`
	// RequireSource makes a missing "Source:" an error (true, the default) or
	// a warning.
	RequireSource *bool `yaml:"require_source" json:"require_source"`

	Chunk  ChunkConfig  `yaml:"chunk" json:"chunk"`
	Embed  EmbedConfig  `yaml:"embed" json:"embed"`
	Header HeaderConfig `yaml:"header" json:"header"`

	// Retrieval holds the collection's query-time settings (read by search);
	// they do not shape the snapshot, so they are not in its config hash.
	Retrieval RetrievalConfig `yaml:"retrieval" json:"-"`
}

// RetrievalConfig is how the collection is queried.
type RetrievalConfig struct {
	Mode string `yaml:"mode"`  // hybrid (BM25 and vectors fused) | naive (vectors only) | bm25 | vector
	TopK int    `yaml:"top_k"` // chunks a question gets
}

// ChunkConfig is the chunk budget.
type ChunkConfig struct {
	Unit    string `yaml:"unit" json:"unit"`       // chars | tokens
	Max     int    `yaml:"max" json:"max"`         // hard budget, but a single sentence is never cut
	Min     int    `yaml:"min" json:"min"`         // soft: small neighbours merge up to it
	Overlap int    `yaml:"overlap" json:"overlap"` // whole trailing sentences of the previous chunk, up to this
}

// EmbedConfig shapes the vectors.
type EmbedConfig struct {
	Dims      int `yaml:"dims" json:"dims"`
	BatchSize int `yaml:"batch_size" json:"batch_size"`
	// MaxDims is the widest vector the consumers' index takes: a wider
	// model is refused at start.
	MaxDims int `yaml:"max_dims" json:"max_dims"`
}

// HeaderConfig shapes the context headers.
type HeaderConfig struct {
	MaxChars int `yaml:"max_chars" json:"max_chars"`
}

// DefaultConfig returns the configuration a run gets with no file and no flags.
func DefaultConfig() Config {
	return Config{
		DefaultLang: string(schema.LangEN),
		Chunk:       ChunkConfig{Unit: "chars", Max: defaultChunkMax},
		Embed:       EmbedConfig{Dims: defaultEmbedDims, BatchSize: defaultBatchSize, MaxDims: maxEmbedDims},
		Header:      HeaderConfig{MaxChars: defaultHeaderChars},
		Retrieval:   RetrievalConfig{Mode: "hybrid", TopK: defaultTopK},
	}
}

// ReadConfig reads a YAML config file over DefaultConfig. Unknown keys are
// errors that name their line: a misspelt key must not be silently ignored.
func ReadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	b, err := os.ReadFile(path)
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	if err := yaml.UnmarshalWithOptions(b, &cfg, yaml.Strict()); err != nil {
		return cfg, fmt.Errorf("config %s: %s", path, yaml.FormatError(err, false, false))
	}
	return cfg, nil
}

// Validate fails closed: every bad setting is reported at once, before any
// work is done.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.Chunk.Unit != "chars" && c.Chunk.Unit != "tokens" {
		bad("chunk.unit %q: want chars or tokens", c.Chunk.Unit)
	}
	if c.Chunk.Max < 1 {
		bad("chunk.max %d: want at least 1", c.Chunk.Max)
	}
	if c.Chunk.Overlap < 0 || c.Chunk.Overlap >= c.Chunk.Max {
		bad("chunk.overlap %d: want 0 ≤ overlap < max (%d)", c.Chunk.Overlap, c.Chunk.Max)
	}
	if c.Chunk.Min < 0 || c.Chunk.Min > c.Chunk.Max {
		bad("chunk.min %d: want 0 ≤ min ≤ max (%d)", c.Chunk.Min, c.Chunk.Max)
	}
	if c.Embed.MaxDims < 1 {
		bad("embed.max_dims %d: want at least 1", c.Embed.MaxDims)
	}
	if c.Embed.Dims < 1 || c.Embed.Dims > c.Embed.MaxDims {
		bad("embed.dims %d: want 1..%d (embed.max_dims)", c.Embed.Dims, c.Embed.MaxDims)
	}
	if c.LLMConcurrency < 0 || c.EmbedConcurrency < 0 {
		bad("llm_concurrency %d, embed_concurrency %d: want 0 (as workers) or more", c.LLMConcurrency, c.EmbedConcurrency)
	}
	if c.Embed.BatchSize < 1 {
		bad("embed.batch_size %d: want at least 1", c.Embed.BatchSize)
	}
	if c.Header.MaxChars < 16 {
		bad("header.max_chars %d: want at least 16", c.Header.MaxChars)
	}
	if _, err := schema.ParseLang(c.DefaultLang); err != nil {
		bad("default_lang: %v", err)
	}
	switch c.Retrieval.Mode {
	case "hybrid", "naive", "bm25", "vector":
	default:
		bad("retrieval.mode %q: want hybrid, naive, bm25 or vector", c.Retrieval.Mode)
	}
	if c.Retrieval.TopK < 1 {
		bad("retrieval.top_k %d: want at least 1", c.Retrieval.TopK)
	}
	if c.Workers < 0 {
		bad("workers %d: want 0 (all cores) or more", c.Workers)
	}
	return errors.Join(errs...)
}

// Hash is a digest of the settings that shape the output (not of where it
// goes or how many workers make it): a cache key and a manifest field.
func (c Config) Hash() string {
	b, _ := json.Marshal(c) // plain data: cannot fail
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c Config) requireSource() bool { return c.RequireSource == nil || *c.RequireSource }
