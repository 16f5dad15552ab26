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

// NewHeaders is the header writer of model on s, a server of kind whose
// Lookup said info.
func NewHeaders(s server.Chatter, kind, model string, info server.ModelInfo, cfg models.BackendConfig) *ModelHeaders {
	strict := strictSchema(s)
	h := &ModelHeaders{
		name:  kind + ":" + model + "@" + info.Digest + "+" + prompt.PromptVersion,
		Where: s.Where(), model: model, server: s,
		retry:    &server.Retrier{Policy: cfg.Retry, Timeout: cfg.Timeout, Log: cfg.Logger},
		maxChars: cfg.HeaderMaxChars, window: prompt.ChatWindow(info.Window), router: routerOf(s),
		schema: prompt.AnswerSchema(cfg.HeaderMaxChars, strict), system: prompt.SystemPrompt(cfg.HeaderMaxChars, strict),
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

// strictSchema reports whether s says its JSON-schema mode is strict
// (OpenAI's: every key required, no maxLength); a server that says
// nothing is not.
func strictSchema(s server.Chatter) bool {
	st, ok := s.(interface{ StrictSchema() bool })
	return ok && st.StrictSchema()
}

// announcedSlots is what server i says of its own parallelism (0: nothing).
func announcedSlots(s server.Chatter, info server.ModelInfo, i int) int {
	if p, ok := s.(interface{ Slots(int) int }); ok {
		return p.Slots(i)
	}
	return info.Slots
}

// OpenEmbedder is the embedder of model on s, a server of kind whose
// Lookup said info; it learns the model's width from info, else by
// embedding one text.
func OpenEmbedder(ctx context.Context, s server.Embedder, kind, model string, info server.ModelInfo, cfg models.BackendConfig) (*ModelEmbedder, error) {
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
