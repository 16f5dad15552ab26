package backends

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/pool"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Open builds the header writer and embedder and runs the start-up
// checks before any work: server unreachable, model not present (say
// `ollama pull MODEL`), embedding dimensions (from the server's model
// info, or a one-text probe) above MaxDims; each failure a one-line error
// naming the setting to change (a *schema.SettingError for llm or
// embedder; the kind's address setting, ollama_host (OLLAMA_HOST) or
// openai_base_url (OPENAI_BASE_URL), or embed.max_dims in its text),
// wrapping ErrBackendSetup. "none"/"builtin" return the offline
// Extractive/Builtin. --llm names a kind that chats, --embedder one that
// embeds (Kind.Serves).
func Open(ctx context.Context, cfg models.BackendConfig) (models.HeaderWriter, models.Embedder, error) {
	cfg = cfg.WithDefaults()
	llmKind, llmModel, err := parseBackend("llm", cfg.LLM, "none", Chat)
	if err != nil {
		return nil, nil, err
	}
	embKind, embModel, err := parseBackend("embedder", cfg.Embedder, "builtin", Embed)
	if err != nil {
		return nil, nil, err
	}
	servers := map[string]server.Server{}
	// lookup finds model on the server of kind k, opened and pinged once
	// however many settings name it.
	lookup := func(k Kind, model string) (server.Server, server.ModelInfo, error) {
		s, ok := servers[k.Name]
		if !ok {
			var err error
			if s, err = newServer(k, cfg); err == nil {
				err = s.Ping(ctx)
			}
			if err != nil {
				return nil, server.ModelInfo{}, models.SetupError(err)
			}
			servers[k.Name] = s
		}
		info, err := s.Lookup(ctx, model)
		return s, info, models.SetupError(err)
	}

	var headers models.HeaderWriter = extractive.New(cfg.HeaderMaxChars)
	if llmKind.Name != "" {
		s, info, err := lookup(llmKind, llmModel)
		if err != nil {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, err)
		}
		c, ok := s.(server.Chatter)
		if !ok {
			return nil, nil, schema.Setting("llm", "%s: %w", cfg.LLM, models.SetupError(fmt.Errorf("%s serves no chat", s.Where())))
		}
		headers = remote.NewHeaders(c, llmKind.Name, llmModel, info, cfg)
	}

	var emb models.Embedder = lexical.NewBuiltin(cfg.Dims)
	if embKind.Name != "" {
		s, info, err := lookup(embKind, embModel)
		if err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, err)
		}
		e, ok := s.(server.Embedder)
		if !ok {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, models.SetupError(fmt.Errorf("%s serves no embeddings", s.Where())))
		}
		if emb, err = remote.OpenEmbedder(ctx, e, embKind.Name, embModel, info, cfg); err != nil {
			return nil, nil, schema.Setting("embedder", "%s: %w", cfg.Embedder, models.SetupError(err))
		}
	}
	if err := remote.CheckDims(emb, cfg); err != nil {
		return nil, nil, models.SetupError(err)
	}
	cfg.Logger.Info("model backends ready", "headers", headers.Name(), "embedder", emb.Name(), "dims", emb.Dims())
	return headers, emb, nil
}

// parseBackend splits "ollama:MODEL" into its kind and model, the kind
// one that does a; the offline setting is the zero Kind.
func parseBackend(key, spec, offline string, a Ability) (Kind, string, error) {
	if spec == offline {
		return Kind{}, "", nil
	}
	name, model, ok := strings.Cut(spec, ":")
	k, known := lookupKind(name)
	want := fmt.Errorf("want %s, %s", offline, Specs(a))
	switch {
	case !ok || model == "" || !known:
		return Kind{}, "", schema.Setting(key, "%q: %w", spec, models.SetupError(want))
	case !k.Serves(a):
		return Kind{}, "", schema.Setting(key, "%q: %w", spec, models.SetupError(fmt.Errorf("%s serves no %s: %w", name, a, want)))
	}
	return k, model, nil
}

// newServer opens the server of kind k, or a pool of them when its
// address is a list ("http://gpu-0:11434,http://gpu-1:11434").
func newServer(k Kind, cfg models.BackendConfig) (server.Server, error) {
	addr := cfg.Addrs[k.Name]
	hosts := models.SplitHosts(addr)
	if len(hosts) <= 1 {
		return newOneServer(k, addr, cfg)
	}
	var srvs []server.Server
	for _, h := range hosts {
		s, err := newOneServer(k, h, cfg)
		if err != nil {
			return nil, err
		}
		srvs = append(srvs, s)
	}
	return pool.New(k.Name, srvs, cfg.Logger, cfg.PrevDigests), nil
}

func newOneServer(k Kind, addr string, cfg models.BackendConfig) (server.Server, error) {
	return k.open(addr, cfg, &server.Retrier{Policy: cfg.Retry, Timeout: cfg.Timeout, Log: cfg.Logger})
}

// Check checks cfg's backend settings as Open would, contacting no server:
// llm and embedder each none/builtin or KIND:MODEL of a kind that does
// what it is for. Each failure is a *schema.SettingError (llm, embedder).
func Check(cfg models.BackendConfig) error {
	_, _, llmErr := parseBackend("llm", cfg.LLM, "none", Chat)
	_, _, embErr := parseBackend("embedder", cfg.Embedder, "builtin", Embed)
	return errors.Join(llmErr, embErr)
}
