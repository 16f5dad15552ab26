package remote

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
)

// probeDoc is what a probe call describes: a document and a chunk of the
// length a run's prompts have (the document capped as a run caps it).
func probeDoc() (schema.Document, schema.Chunk) {
	para := "Rip currents are narrow channels of fast water that flow away from the shore. If one pulls you, swim parallel to the beach until you are out of it, then back to land. Waves above 1.5 m close the beach to swimmers.\n\n"
	text := "# Rip currents\n\n" + strings.Repeat(para, 40)
	return schema.Document{Path: "probe.md", Title: "Rip currents", Lang: schema.LangEN, Kind: schema.KindSafety, Text: text},
		schema.Chunk{Text: strings.TrimSpace(para), SectionPath: []string{"What to do"}, Lang: schema.LangEN, Element: schema.ElementParagraph}
}

// ProbeRates makes one header call to each of the writer's servers and
// returns how fast each read its prompt and wrote its answer, as the
// server says (Ollama's prompt-eval and eval counts and durations), or the
// call's seconds when it does not say. The calls are warm-ups: a model the
// server had to load first is timed without the load.
func (h *ModelHeaders) ProbeRates(ctx context.Context) ([]models.Rate, error) {
	doc, c := probeDoc()
	msgs := []server.ChatMessage{{Role: "system", Content: h.system}, {Role: "user", Content: h.userMessage(h.preps.Get(doc), doc, c)}}
	var out []models.Rate
	for i := range h.Servers() {
		req := server.ChatRequest{Model: h.model, Messages: msgs, Schema: h.schema, NumCtx: h.window}
		start := time.Now()
		var a server.ChatAnswer
		err := h.retry.Do(models.OnServer(ctx, i), func(ctx context.Context) error {
			var err error
			a, err = h.server.Chat(ctx, req)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("%s: probe: %w", h.Where, err)
		}
		r := models.Rate{PerCall: (time.Since(start) - a.Loaded()).Seconds()}
		if u := a.Usage; u.PromptSeconds > 0 && u.AnswerSeconds > 0 {
			r.Prefill, r.Decode = float64(u.PromptTokens)/u.PromptSeconds, float64(u.AnswerTokens)/u.AnswerSeconds
		}
		out = append(out, r)
	}
	return out, nil
}

// ProbeRate embeds one batch and returns how fast the server read it.
func (e *ModelEmbedder) ProbeRate(ctx context.Context) (models.Rate, error) {
	_, c := probeDoc()
	texts := make([]string, e.batch)
	for i := range texts {
		texts[i] = fmt.Sprintf("%d. %s", i, c.Text)
	}
	start := time.Now()
	res, err := e.call(ctx, texts)
	if err != nil {
		return models.Rate{}, fmt.Errorf("%s: probe: %w", e.where, err)
	}
	secs := time.Since(start).Seconds()
	r := models.Rate{PerCall: secs}
	if res.Tokens > 0 {
		r.Prefill = float64(res.Tokens) / secs
	}
	return r, nil
}
