package models

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"
)

// Backend defaults, each with its reason.
const defaultModelTimeout = 120 * time.Second // a 7B model's answer on a CPU; a hung server is given up on after it

// ErrBackendSetup marks a start-up check that failed: the model server or
// the model is not what the flags say. Nothing has been read or written yet.
var ErrBackendSetup = errors.New("model backend")

// BackendConfig says which models write headers and embeddings, and where.
type BackendConfig struct {
	LLM      string // "none", or a chat server's KIND:MODEL ("ollama:qwen2.5:7b")
	Embedder string // "builtin", or an embedding server's KIND:MODEL ("ollama:bge-m3")
	// Addrs are the servers' addresses by kind, the prefix of a backend
	// setting ("ollama": "http://gpu-0:11434,http://gpu-1:11434"), as the
	// command line reads them from each kind's flag or variable
	// ($OLLAMA_HOST, $OPENAI_BASE_URL); "" is the client's default
	// (Ollama's local address), or none (openai's).
	Addrs        map[string]string
	OllamaAuth   bool          // sign requests as Ollama's own client does (the command line: $OLLAMA_AUTH on, read as Ollama reads it); always for ollama.com
	OllamaKey    string        // the key that signs them: Ollama's, ~/.ollama/id_ed25519 (the command line resolves $HOME); read only to sign
	OpenAIKeyEnv string        // the variable the command line read OpenAIKey from, for messages ("" → DefaultOpenAIKeyEnv, and an empty key is allowed)
	OpenAIKey    string        // the API key (the command line reads it from KeyEnv()); never logged or written anywhere
	Timeout      time.Duration // per call (default 120s)
	Dims         int           // for builtin; a server's dims are read from it
	MaxDims      int           // embed.max_dims (default 1024): refuse a wider model
	// PrevDigests are the previous snapshot's model digests, by model (see
	// PrevDigests): with several servers, the digest the run keeps.
	PrevDigests map[string]string
	BatchSize   int // embed.batch_size (default 10)
	// LLMMaxConcurrency caps the chat calls in flight one server is given
	// (llm_max_concurrency; 0: DefaultMaxWidth).
	LLMMaxConcurrency int
	HeaderMaxChars    int
	Retry             RetryPolicy  // tries and back-off of every model call; zero: the defaults
	Logger            *slog.Logger // nil: no logging
}

// DefaultOpenAIKeyEnv is the variable an OpenAI-compatible server's API key
// is read from when no other is named.
const DefaultOpenAIKeyEnv = "OPENAI_API_KEY"

// KeyEnv is the variable the API key is read from: OpenAIKeyEnv, else
// DefaultOpenAIKeyEnv.
func (c BackendConfig) KeyEnv() string {
	if c.OpenAIKeyEnv != "" {
		return c.OpenAIKeyEnv
	}
	return DefaultOpenAIKeyEnv
}

// WithDefaults fills what is unset with the defaults.
func (c BackendConfig) WithDefaults() BackendConfig {
	if c.LLM == "" {
		c.LLM = "none"
	}
	if c.Embedder == "" {
		c.Embedder = "builtin"
	}
	if c.Timeout <= 0 {
		c.Timeout = defaultModelTimeout
	}
	if c.Dims <= 0 {
		c.Dims = DefaultDims
	}
	if c.MaxDims <= 0 {
		c.MaxDims = MaxDims
	}
	if c.BatchSize <= 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.HeaderMaxChars <= 0 {
		c.HeaderMaxChars = DefaultHeaderChars
	}
	if c.LLMMaxConcurrency <= 0 {
		c.LLMMaxConcurrency = DefaultMaxWidth
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// PrevDigests reads the model digests out of a snapshot's header writer and
// embedder names ("ollama:qwen2.5:7b@sha256:0123456789ab+prompt-v2"), by
// model.
func PrevDigests(names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		_, rest, ok := strings.Cut(n, ":")
		if !ok {
			continue
		}
		model, digest, ok := strings.Cut(rest, "@")
		if !ok {
			continue
		}
		digest, _, _ = strings.Cut(digest, "+")
		out[model] = digest
	}
	return out
}

// Endpoints is how many servers an address names: a comma-separated list
// spreads calls over several.
func Endpoints(addr string) int { return max(1, len(SplitHosts(addr))) }

// Servers is how many servers the backend spec spreads its calls over: as
// many as the address of its kind lists ("ollama:MODEL": Addrs["ollama"]);
// one for an offline backend ("none", "builtin").
func (c BackendConfig) Servers(spec string) int {
	kind, _, ok := strings.Cut(spec, ":")
	if !ok {
		return 1
	}
	return Endpoints(c.Addrs[kind])
}

// SetupError marks err as a failed start-up check, its message unchanged.
func SetupError(err error) error {
	if err == nil || errors.Is(err, ErrBackendSetup) || errors.Is(err, context.Canceled) {
		return err
	}
	return setupErr{err}
}

type setupErr struct{ error }

func (e setupErr) Unwrap() error { return e.error }

func (setupErr) Is(target error) bool { return target == ErrBackendSetup }

// SplitHosts reads a list of server addresses: comma-separated, spaces
// allowed, empty items dropped.
func SplitHosts(s string) []string {
	var out []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// Retry defaults, each with its reason.
const (
	defaultTries        = 4                      // a restarting server or a short overload passes; a dead one fails in seconds
	defaultRetryInitial = 500 * time.Millisecond // a model server's 503 "loading" clears in about a second
	defaultRetryMax     = 10 * time.Second       // between two tries, so a run never sleeps long on one call
)

// RetryPolicy bounds the tries of one model call. Zero fields take the defaults.
type RetryPolicy struct {
	Tries   int           // attempts in all, the first included
	Initial time.Duration // first back-off; each next one doubles, with ±50% jitter
	Max     time.Duration // longest back-off
}

func (p RetryPolicy) WithDefaults() RetryPolicy {
	if p.Tries <= 0 {
		p.Tries = defaultTries
	}
	if p.Initial <= 0 {
		p.Initial = defaultRetryInitial
	}
	if p.Max <= 0 {
		p.Max = defaultRetryMax
	}
	return p
}

// Spec is the llm or embedder setting that names a model in a manifest:
// "ollama:bge-m3@sha256…" was made by ollama:bge-m3 (its digest is the
// server's to match), the built-in embedder by builtin.
func Spec(name string) string {
	if name == "builtin-hash-v1" {
		return "builtin"
	}
	spec, _, _ := strings.Cut(name, "@")
	return spec
}
