package remote

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
)

const probeText = "dimension probe" // embedded once at start when a server does not say its width

func NewHeaders(s server.Server, kind, model string, info server.ModelInfo, cfg models.BackendConfig) *ModelHeaders {
	h := &ModelHeaders{
		name:  kind + ":" + model + "@" + info.Digest + "+" + prompt.PromptVersion,
		Where: s.Where(), model: model, server: s,
		retry:    &server.Retrier{Policy: cfg.Retry, Timeout: cfg.Timeout, Log: cfg.Logger},
		maxChars: cfg.HeaderMaxChars, window: prompt.ChatWindow(info.Window), router: routerOf(s),
		schema: prompt.AnswerSchema(cfg.HeaderMaxChars, s.StrictSchema()), system: prompt.SystemPrompt(cfg.HeaderMaxChars, s.StrictSchema()),
	}
	for i := range h.router.Count() {
		l := newLimiter(models.DefaultStartWidth, cfg.LLMMaxConcurrency)
		if n := announcedSlots(s, info, i); n > 0 {
			l.fix(min(n, cfg.LLMMaxConcurrency), WidthServer)
		}
		h.widths = append(h.widths, l)
	}
	return h
}

// announcedSlots is what server i says of its own parallelism (0: nothing).
func announcedSlots(s server.Server, info server.ModelInfo, i int) int {
	if p, ok := s.(interface{ Slots(int) int }); ok {
		return p.Slots(i)
	}
	return info.Slots
}

// OpenEmbedder looks the model up and learns its width: from the server's
// model info, else by embedding one text.
func OpenEmbedder(ctx context.Context, s server.Server, kind, model string, cfg models.BackendConfig) (*ModelEmbedder, error) {
	info, err := s.Lookup(ctx, model)
	if err != nil {
		return nil, err
	}
	e := &ModelEmbedder{
		name: kind + ":" + model + "@" + info.Digest, where: s.Where(), model: model, server: s,
		retry: &server.Retrier{Policy: cfg.Retry, Timeout: cfg.Timeout, Log: cfg.Logger},
		dims:  info.Dims, batch: cfg.BatchSize, window: min(info.Window, maxEmbedWindow),
	}
	if e.dims == 0 {
		res, err := e.probe(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: probe: %w", s.Where(), err)
		}
		e.dims = len(res.Vectors[0])
	}
	return e, nil
}

// CheckDims refuses an embedder the consumers' vector index cannot take.
func CheckDims(e models.Embedder, cfg models.BackendConfig) error {
	switch d := e.Dims(); {
	case d > cfg.MaxDims:
		return schema.Setting("embed.max_dims", "%d, but embedder %s gives %d dimensions (the consumers' vector index refuses wider vectors): pick a smaller embedder model or raise embed.max_dims", cfg.MaxDims, e.Name(), d)
	}
	return nil
}
