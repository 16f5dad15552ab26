package models

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/schema"
)

// Backend defaults, each with its reason.
const defaultModelTimeout = 120 * time.Second // a 7B model's answer on a CPU; a hung server is given up on after it

const defaultOllamaHost = "http://127.0.0.1:11434"

const defaultOpenAIKeyEnv = "OPENAI_API_KEY"

const probeText = "dimension probe" // embedded once at start when a server does not say its width

// ErrBackendSetup marks a start-up check that failed: the model server or
// the model is not what the flags say. Nothing has been read or written yet.
var ErrBackendSetup = errors.New("model backend")

// BackendConfig says which models write headers and embeddings, and where.
type BackendConfig struct {
	LLM           string        // "none" | "ollama:MODEL" | "openai:MODEL"
	Embedder      string        // "builtin" | "ollama:MODEL" | "openai:MODEL"
	OllamaHost    string        // "" → $OLLAMA_HOST → http://127.0.0.1:11434
	OpenAIBaseURL string        // "" → $OPENAI_BASE_URL
	OpenAIKeyEnv  string        // name of the env var holding the API key ("" → OPENAI_API_KEY); the key is never logged or written anywhere
	Timeout       time.Duration // per call (default 120s)
	Dims          int           // for builtin; a server's dims are read from it
	MaxDims       int           // embed.max_dims (default 1024): refuse a wider model
	PrevDims      int           // a previous snapshot's dims (0: none): refuse a different width
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

func (c BackendConfig) withDefaults() BackendConfig {
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

// modelServer is a model server as the backends use it: Ollama's API or an
// OpenAI-compatible one. Its calls make one try; the backends retry.
type modelServer interface {
	chatServer
	embedServer
	// ping checks, with a single try, that the server answers at all.
	ping(ctx context.Context) error
	// lookup finds a model on the server.
	lookup(ctx context.Context, model string) (modelInfo, error)
	// where names the server for messages: "ollama at http://…".
	where() string
	// hint says which flag or variable points at the server.
	hint() string
	// strictSchema reports whether the server's JSON-schema mode is strict
	// (OpenAI's): every key required, no maxLength.
	strictSchema() bool
}

// modelInfo is what a server says of one of its models.
type modelInfo struct {
	digest string // short, "sha256:0123456789ab"; stands for the weights, where a tag can move
	dims   int    // embedding width; 0: unknown, probe
	window int    // context window in tokens; 0: unknown
	slots  int    // calls the server says it answers at once (llama-server's /props); 0: it does not say
}

// OpenBackends builds the header writer and embedder and runs the start-up
// checks before any work: server unreachable, model not present (say
// `ollama pull MODEL`), embedding dimensions (from /api/show model info, or
// a one-text probe) above MaxDims or different from PrevDims; each failure a
// one-line error naming the setting to change (a *schema.SettingError for
// llm or embedder; ollama_host / OLLAMA_HOST, openai_base_url /
// OPENAI_BASE_URL, embed.max_dims in its text), wrapping ErrBackendSetup. "none"/"builtin" return the offline Extractive/Builtin.
func OpenBackends(ctx context.Context, cfg BackendConfig) (HeaderWriter, Embedder, error) {
	cfg = cfg.withDefaults()
	llmKind, llmModel, err := parseBackend("llm", cfg.LLM, "none")
	if err != nil {
		return nil, nil, err
	}
	embKind, embModel, err := parseBackend("embedder", cfg.Embedder, "builtin")
	if err != nil {
		return nil, nil, err
	}
	servers := map[string]modelServer{}
	server := func(kind string) (modelServer, error) {
		if s, ok := servers[kind]; ok {
			return s, nil
		}
		s, err := newServer(kind, cfg)
		if err == nil {
			err = s.ping(ctx)
		}
		if err != nil {
			return nil, setupError(err)
		}
		servers[kind] = s
		return s, nil
	}

	var headers HeaderWriter = NewExtractive(cfg.HeaderMaxChars)
	if llmKind != "none" {
		s, err := server(llmKind)
		if err != nil {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, err)
		}
		info, err := s.lookup(ctx, llmModel)
		if err != nil {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, setupError(err))
		}
		headers = newModelHeaders(s, llmKind, llmModel, info, cfg)
	}

	var emb Embedder = lexical.NewBuiltin(cfg.Dims)
	if embKind != "builtin" {
		s, err := server(embKind)
		if err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, err)
		}
		if emb, err = openEmbedder(ctx, s, embKind, embModel, cfg); err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, setupError(err))
		}
	}
	if err := checkDims(emb, cfg); err != nil {
		return nil, nil, setupError(err)
	}
	cfg.Logger.Info("model backends ready", "headers", headers.Name(), "embedder", emb.Name(), "dims", emb.Dims())
	return headers, emb, nil
}

// parseBackend splits "ollama:MODEL" into its kind and model.
func parseBackend(key, spec, offline string) (kind, model string, err error) {
	if spec == offline {
		return offline, "", nil
	}
	kind, model, ok := strings.Cut(spec, ":")
	if !ok || model == "" || (kind != "ollama" && kind != "openai") {
		return "", "", schema.Setting(key, "%q: %w", spec, setupError(fmt.Errorf("want %s, ollama:MODEL or openai:MODEL", offline)))
	}
	return kind, model, nil
}

// newServer opens the server of kind, or a pool of them when its address
// is a list ("http://gpu-0:11434,http://gpu-1:11434").
func newServer(kind string, cfg BackendConfig) (modelServer, error) {
	addr := cfg.OpenAIBaseURL
	if kind == "ollama" {
		addr = cfg.OllamaHost
		if addr == "" {
			addr = os.Getenv("OLLAMA_HOST")
		}
	}
	hosts := splitHosts(addr)
	if len(hosts) <= 1 {
		return newOneServer(kind, addr, cfg)
	}
	var srvs []modelServer
	for _, h := range hosts {
		s, err := newOneServer(kind, h, cfg)
		if err != nil {
			return nil, err
		}
		srvs = append(srvs, s)
	}
	return newPool(kind, srvs, cfg.Logger, cfg.PrevDigests), nil
}

func newOneServer(kind, addr string, cfg BackendConfig) (modelServer, error) {
	r := &retrier{policy: cfg.Retry, timeout: cfg.Timeout, log: cfg.Logger}
	if kind == "ollama" {
		return newOllama(addr, cfg.Timeout, r)
	}
	return newOpenAI(addr, cfg.OpenAIKeyEnv, cfg.Timeout, r)
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
func Endpoints(addr string) int { return max(1, len(splitHosts(addr))) }

func newModelHeaders(s modelServer, kind, model string, info modelInfo, cfg BackendConfig) *ModelHeaders {
	h := &ModelHeaders{
		name:  kind + ":" + model + "@" + info.digest + "+" + PromptVersion,
		where: s.where(), model: model, server: s,
		retry:    &retrier{policy: cfg.Retry, timeout: cfg.Timeout, log: cfg.Logger},
		maxChars: cfg.HeaderMaxChars, window: chatWindow(info.window), router: routerOf(s),
		schema: answerSchema(cfg.HeaderMaxChars, s.strictSchema()), system: systemPrompt(cfg.HeaderMaxChars, s.strictSchema()),
	}
	for i := range h.router.count() {
		l := newLimiter(DefaultStartWidth, cfg.LLMMaxConcurrency)
		if n := announcedSlots(s, info, i); n > 0 {
			l.fix(min(n, cfg.LLMMaxConcurrency), WidthServer)
		}
		h.widths = append(h.widths, l)
	}
	return h
}

// announcedSlots is what server i says of its own parallelism (0: nothing).
func announcedSlots(s modelServer, info modelInfo, i int) int {
	if p, ok := s.(interface{ slots(int) int }); ok {
		return p.slots(i)
	}
	return info.slots
}

// openEmbedder looks the model up and learns its width: from the server's
// model info, else by embedding one text.
func openEmbedder(ctx context.Context, s modelServer, kind, model string, cfg BackendConfig) (*ModelEmbedder, error) {
	info, err := s.lookup(ctx, model)
	if err != nil {
		return nil, err
	}
	e := &ModelEmbedder{
		name: kind + ":" + model + "@" + info.digest, where: s.where(), model: model, server: s,
		retry: &retrier{policy: cfg.Retry, timeout: cfg.Timeout, log: cfg.Logger},
		dims:  info.dims, batch: cfg.BatchSize, window: min(info.window, maxEmbedWindow),
	}
	if e.dims == 0 {
		res, err := e.probe(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: probe: %w", s.where(), err)
		}
		e.dims = len(res.Vectors[0])
	}
	return e, nil
}

// checkDims refuses an embedder the consumers' vector index cannot take.
func checkDims(e Embedder, cfg BackendConfig) error {
	switch d := e.Dims(); {
	case d > cfg.MaxDims:
		return schema.Setting("embed.max_dims", "%d, but embedder %s gives %d dimensions (the consumers' vector index refuses wider vectors): pick a smaller embedder model or raise embed.max_dims", cfg.MaxDims, e.Name(), d)
	case cfg.PrevDims > 0 && d != cfg.PrevDims:
		return schema.Setting("embedder", "%s gives %d dimensions, the previous snapshot has %d (one index cannot mix widths): pick a %d-dimension model, or build a new snapshot from scratch", e.Name(), d, cfg.PrevDims, cfg.PrevDims)
	}
	return nil
}

// setupError marks err as a failed start-up check, its message unchanged.
func setupError(err error) error {
	if err == nil || errors.Is(err, ErrBackendSetup) || errors.Is(err, context.Canceled) {
		return err
	}
	return setupErr{err}
}

type setupErr struct{ error }

func (e setupErr) Unwrap() error      { return e.error }
func (setupErr) Is(target error) bool { return target == ErrBackendSetup }

// errModelMissing is a model the server does not have.
func errModelMissing(where, model, fix string) error {
	return fmt.Errorf("%s has no model %q: %s", where, model, fix)
}

const maxAnswerBytes = 64 << 20 // a batch of ten 4096-float vectors in JSON is under 1 MB; more is a broken server

// readAnswer reads a server's answer into buf (reset first), refusing one
// over maxAnswerBytes: a hostile or broken server cannot fill memory, and
// a cut answer is an error, never half a JSON document.
func readAnswer(buf *bytes.Buffer, body io.Reader) error {
	buf.Reset()
	n, err := buf.ReadFrom(io.LimitReader(body, maxAnswerBytes+1))
	if err != nil {
		return err
	}
	if n > maxAnswerBytes {
		return fmt.Errorf("the answer is over %d MB", maxAnswerBytes>>20)
	}
	return nil
}

// answerBuffers are reused between calls: an embedding answer is hundreds
// of kilobytes.
var answerBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
