package backends

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/ollama"
	"github.com/ocean-safety/ingest/models/openai"
	"github.com/ocean-safety/ingest/models/pool"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Open builds the header writer and embedder and runs the start-up
// checks before any work: server unreachable, model not present (say
// `ollama pull MODEL`), embedding dimensions (from /api/show model info, or
// a one-text probe) above MaxDims; each failure a
// one-line error naming the setting to change (a *schema.SettingError for
// llm or embedder; ollama_host / OLLAMA_HOST, openai_base_url /
// OPENAI_BASE_URL, embed.max_dims in its text), wrapping ErrBackendSetup. "none"/"builtin" return the offline Extractive/Builtin.
func Open(ctx context.Context, cfg models.BackendConfig) (models.HeaderWriter, models.Embedder, error) {
	cfg = cfg.WithDefaults()
	llmKind, llmModel, err := parseBackend("llm", cfg.LLM, "none")
	if err != nil {
		return nil, nil, err
	}
	embKind, embModel, err := parseBackend("embedder", cfg.Embedder, "builtin")
	if err != nil {
		return nil, nil, err
	}
	servers := map[string]server.Server{}
	// lookup finds model on the server of kind, opened and pinged once
	// however many settings name it.
	lookup := func(kind, model string) (server.Server, server.ModelInfo, error) {
		s, ok := servers[kind]
		if !ok {
			var err error
			if s, err = newServer(kind, cfg); err == nil {
				err = s.Ping(ctx)
			}
			if err != nil {
				return nil, server.ModelInfo{}, models.SetupError(err)
			}
			servers[kind] = s
		}
		info, err := s.Lookup(ctx, model)
		return s, info, models.SetupError(err)
	}

	var headers models.HeaderWriter = extractive.New(cfg.HeaderMaxChars)
	if llmKind != "none" {
		s, info, err := lookup(llmKind, llmModel)
		if err != nil {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, err)
		}
		c, ok := s.(server.Chatter)
		if !ok {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, models.SetupError(fmt.Errorf("%s serves no chat", s.Where())))
		}
		headers = remote.NewHeaders(c, llmKind, llmModel, info, cfg)
	}

	var emb models.Embedder = lexical.NewBuiltin(cfg.Dims)
	if embKind != "builtin" {
		s, info, err := lookup(embKind, embModel)
		if err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, err)
		}
		e, ok := s.(server.Embedder)
		if !ok {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, models.SetupError(fmt.Errorf("%s serves no embeddings", s.Where())))
		}
		if emb, err = remote.OpenEmbedder(ctx, e, embKind, embModel, info, cfg); err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, models.SetupError(err))
		}
	}
	if err := remote.CheckDims(emb, cfg); err != nil {
		return nil, nil, models.SetupError(err)
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
	if _, known := clients[kind]; !ok || model == "" || !known {
		return "", "", schema.Setting(key, "%q: %w", spec, models.SetupError(fmt.Errorf("want %s, %s", offline, kindsList())))
	}
	return kind, model, nil
}

// A client is one kind of model server: where the settings say it is, and
// how to open one at an address.
type client struct {
	addr func(models.BackendConfig) string
	open func(addr string, cfg models.BackendConfig, r *server.Retrier) (server.Server, error)
}

// clients are the model servers a backend names, by kind ("ollama:MODEL"):
// a new one is a client package and a line here.
var clients = map[string]client{
	"ollama": {func(c models.BackendConfig) string { return c.OllamaHost }, func(addr string, c models.BackendConfig, r *server.Retrier) (server.Server, error) {
		return ollama.New(addr, c.OllamaAuth, c.Timeout, r)
	}},
	"openai": {func(c models.BackendConfig) string { return c.OpenAIBaseURL }, func(addr string, c models.BackendConfig, r *server.Retrier) (server.Server, error) {
		return openai.New(addr, c.OpenAIKeyEnv, c.OpenAIKey, c.Timeout, r)
	}},
}

// kindsList names the kinds for a message: "ollama:MODEL or openai:MODEL".
func kindsList() string {
	kinds := slices.Sorted(maps.Keys(clients))
	for i, k := range kinds {
		kinds[i] = k + ":MODEL"
	}
	if len(kinds) == 1 {
		return kinds[0]
	}
	return strings.Join(kinds[:len(kinds)-1], ", ") + " or " + kinds[len(kinds)-1]
}

// newServer opens the server of kind, or a pool of them when its address
// is a list ("http://gpu-0:11434,http://gpu-1:11434").
func newServer(kind string, cfg models.BackendConfig) (server.Server, error) {
	addr := clients[kind].addr(cfg)
	hosts := models.SplitHosts(addr)
	if len(hosts) <= 1 {
		return newOneServer(kind, addr, cfg)
	}
	var srvs []server.Server
	for _, h := range hosts {
		s, err := newOneServer(kind, h, cfg)
		if err != nil {
			return nil, err
		}
		srvs = append(srvs, s)
	}
	return pool.New(kind, srvs, cfg.Logger, cfg.PrevDigests), nil
}

func newOneServer(kind, addr string, cfg models.BackendConfig) (server.Server, error) {
	return clients[kind].open(addr, cfg, &server.Retrier{Policy: cfg.Retry, Timeout: cfg.Timeout, Log: cfg.Logger})
}
