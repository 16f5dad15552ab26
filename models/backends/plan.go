package backends

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/text/lexical"
)

// unknownDigest stands for a model's weights that no server was asked for:
// no cache key of a snapshot holds it, so nothing is counted as reused
// that the run would call a model for.
const unknownDigest = "unknown"

// OpenForPlan opens cfg's header writer and embedder as a plan counts
// with them, contacting no server: the clients are made, never called. A
// model's digest is the previous snapshot's (cfg.PrevDigests), so what the
// run would reuse counts as reused, else unknown; the embedder's width is
// dims (the previous snapshot's, else the setting's). What a run checks
// at start (the servers up, the models there, the width) is --probe's and
// the run's to find out.
func OpenForPlan(ctx context.Context, cfg models.BackendConfig, dims int) (models.HeaderWriter, models.Embedder, error) {
	cfg = cfg.WithDefaults()
	llmKind, llmModel, err := parseBackend("llm", cfg.LLM, "none", Chat)
	if err != nil {
		return nil, nil, err
	}
	embKind, embModel, err := parseBackend("embedder", cfg.Embedder, "builtin", Embed)
	if err != nil {
		return nil, nil, err
	}
	info := func(model string) server.ModelInfo {
		d := cfg.PrevDigests[model]
		if d == "" {
			d = unknownDigest
		}
		return server.ModelInfo{Digest: d, Dims: dims}
	}
	var headers models.HeaderWriter = extractive.New(cfg.HeaderMaxChars)
	if llmKind.Name != "" {
		s, err := newServer(llmKind, cfg)
		if err != nil {
			return nil, nil, models.SetupError(err)
		}
		c, ok := s.(server.Chatter)
		if !ok { // parseBackend checked the kind chats
			return nil, nil, models.SetupError(fmt.Errorf("%s serves no chat", s.Where()))
		}
		headers = remote.NewHeaders(c, llmKind.Name, llmModel, info(llmModel), cfg)
	}
	var emb models.Embedder = lexical.NewBuiltin(cfg.Dims)
	if embKind.Name != "" {
		s, err := newServer(embKind, cfg)
		if err != nil {
			return nil, nil, models.SetupError(err)
		}
		e, ok := s.(server.Embedder)
		if !ok {
			return nil, nil, models.SetupError(fmt.Errorf("%s serves no embeddings", s.Where()))
		}
		// The width is known, so OpenEmbedder makes no probe call.
		if emb, err = remote.OpenEmbedder(ctx, e, embKind.Name, embModel, info(embModel), cfg); err != nil {
			return nil, nil, models.SetupError(err)
		}
	}
	return headers, emb, nil
}
