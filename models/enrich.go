package models

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/sentence"
)

// PromptVersion names the prompt and answer schema below. Change it with
// either: it is part of the header writer's Name, so cached headers written
// under another prompt are not reused.
const PromptVersion = "prompt-v1"

// Prompt settings, each with its reason.
const (
	promptDocChars  = 6000 // the document the model sees first: enough for its title, sections and gist, and a fixed prefix the server's prompt cache keeps across the document's chunks
	answerTokens    = 512  // room for the answer: a header, four short fields and a few thresholds
	promptSeed      = 42   // with temperature 0, the same prompt gives the same answer
	minChatContext  = 8192 // fits the system prompt, a capped document, a long chunk and a repair round in either language (see chatContext)
	maxFieldChars   = 80   // hazard, place, season: ids and names, not prose
	maxClaimChars   = 300  // unsourced_claim: one quoted sentence
	maxRejectedEcho = 2000 // of a bad answer shown back to the model in the repair prompt
)

var comparators = []string{schema.ComparatorAbove, schema.ComparatorBelow, schema.ComparatorBetween, schema.ComparatorAtLeast, schema.ComparatorAtMost}

// chatServer is one model server's chat call: messages in, the answer's raw
// text out. One call, no retries: ModelHeaders retries around it.
type chatServer interface {
	chat(ctx context.Context, req chatRequest) (string, error)
}

type chatRequest struct {
	Model    string
	Messages []chatMessage
	Schema   json.RawMessage
	NumCtx   int // context window to ask for; 0: the server's default
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

var _ HeaderWriter = (*ModelHeaders)(nil)

// ModelHeaders is the header writer backed by a model server (Ollama or
// OpenAI-compatible): one chat call per chunk with a JSON-schema-constrained
// answer that is validated here, one repair call for an invalid answer, and
// the extractive header when the repair fails too. Server failures are
// errors, never fallbacks. Safe for concurrent use.
type ModelHeaders struct {
	name     string
	where    string // "ollama at http://…", for errors
	model    string
	server   chatServer
	retry    *retrier
	maxChars int
	ctxLimit int // the model's context window; 0: unknown
	schema   json.RawMessage
	system   string

	calls, repairs, fallbacks atomic.Int64
}

// Name implements HeaderWriter: backend, model, digest and prompt version.
func (h *ModelHeaders) Name() string { return h.name }

// Stats returns what the writer has done so far.
func (h *ModelHeaders) Stats() schema.ModelStats {
	return schema.ModelStats{Calls: h.calls.Load(), Retries: h.retry.retries.Load(), Repairs: h.repairs.Load(), Fallbacks: h.fallbacks.Load()}
}

// Header implements HeaderWriter.
func (h *ModelHeaders) Header(ctx context.Context, doc schema.Document, c schema.Chunk) (Enrichment, error) {
	if c.Element == schema.ElementTableRow {
		// A row's header is its table's context; a model adds cost, not facts.
		return Enrichment{Header: ExtractiveHeader(doc.Title, c, h.maxChars), Source: schema.HeaderExtractive}, nil
	}
	msgs := []chatMessage{{Role: "system", Content: h.system}, {Role: "user", Content: userPrompt(doc, c, h.docBudget(c))}}
	raw, err := h.ask(ctx, msgs)
	if err != nil {
		return Enrichment{}, err
	}
	a, verr := parseAnswer(raw, h.maxChars)
	if verr == nil {
		return a.enrichment(1), nil
	}
	h.repairs.Add(1)
	msgs = append(msgs, chatMessage{Role: "assistant", Content: capRunes(raw, maxRejectedEcho)},
		chatMessage{Role: "user", Content: repairPrompt(verr)})
	raw, err = h.ask(ctx, msgs)
	if err != nil {
		return Enrichment{}, err
	}
	if a, verr = parseAnswer(raw, h.maxChars); verr == nil {
		return a.enrichment(2), nil
	}
	h.fallbacks.Add(1)
	return Enrichment{Header: ExtractiveHeader(doc.Title, c, h.maxChars), Source: schema.HeaderExtractiveFallback, Reject: raw, Calls: 2}, nil
}

// ask makes one chat call, retried on transient failures.
func (h *ModelHeaders) ask(ctx context.Context, msgs []chatMessage) (string, error) {
	req := chatRequest{Model: h.model, Messages: msgs, Schema: h.schema, NumCtx: chatContext(msgs[:2], h.ctxLimit)}
	var raw string
	err := h.retry.do(ctx, func(ctx context.Context) error {
		var err error
		raw, err = h.server.chat(ctx, req)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("%s: chat: %w", h.where, err)
	}
	h.calls.Add(1)
	return raw, nil
}

// chatContext sizes the context window to the prompt, with room for the
// answer and for a repair round (the bad answer and the repair prompt), so
// a chunk's two calls ask for the same window. Ollama reloads the model when
// num_ctx changes, so the window is one value, minChatContext, for every
// prompt that fits it, and doubles for the rare one that does not (an
// oversize chunk); the 25% margin covers the token estimate's error.
func chatContext(msgs []chatMessage, limit int) int {
	need := 3 * answerTokens
	for _, m := range msgs {
		need += lexical.ApproxTokens{}.Count(m.Content) + 8
	}
	need = need * 5 / 4 // lexical.ApproxTokens is within about 15%
	n := minChatContext
	for n < need {
		n *= 2
	}
	if limit > 0 && n > limit {
		n = limit
	}
	return n
}

// systemPrompt is fixed for a run: with the document that follows it, it is
// the prefix every chunk of a document shares.
func systemPrompt(maxChars int) string {
	return fmt.Sprintf(`You write retrieval metadata for one chunk of an ocean-safety document. You get the document (perhaps cut short), then one chunk of it. Answer with one JSON object and nothing else:
- context_header: ONE sentence in the chunk's language, at most %d characters, no line break, saying which document and section the chunk comes from and what it is about, so the chunk makes sense alone.
- hazard: the danger the chunk is about as a snake_case id (rip_current, cold_water, high_surf, strong_wind, jellyfish, sun_exposure, lightning, ...), or "".
- place: the named beach, coast or town it concerns, as written, or "".
- season: when it applies (summer, winter, spring, autumn, rainy_season, dry_season, ...), or "".
- thresholds: each numeric bound the chunk itself states, as {"subject", "comparator", "value", "unit"}: subject a snake_case id (wave_height, wind_speed, water_temperature, air_temperature, water_depth, distance, current_speed), comparator one of above, below, between (value is the lower end), at_least, at_most; value and unit as the chunk writes them. [] if none. Never give a number the chunk does not contain.
- unsourced_claim: a claim in the chunk that needs a source but cites none, quoted, or "".`, maxChars)
}

// docBudget is how much of the document goes in the prompt: promptDocChars,
// or less for a model whose window is smaller than minChatContext, so the
// server need not cut the prompt (which it would do silently). The budget
// counts two characters a token, cautious for any tokenizer.
func (h *ModelHeaders) docBudget(c schema.Chunk) int {
	if h.ctxLimit <= 0 || h.ctxLimit >= minChatContext {
		return promptDocChars
	}
	free := h.ctxLimit*4/5 - 3*answerTokens - lexical.ApproxTokens{}.Count(h.system) - lexical.ApproxTokens{}.Count(c.Text) - 64
	return max(0, min(promptDocChars, 2*free))
}

// userPrompt puts the document (up to docChars) first and the chunk last,
// so the prompt's prefix is the same for all of a document's chunks.
func userPrompt(doc schema.Document, c schema.Chunk, docChars int) string {
	var b strings.Builder
	body := doc.Text[min(doc.BodyStart, len(doc.Text)):]
	fmt.Fprintf(&b, "Document: %s\n\n", doc.Title)
	if utf8.RuneCountInString(body) > docChars {
		b.WriteString(string([]rune(body)[:docChars]))
		b.WriteString("\n[document cut here]\n")
	} else {
		b.WriteString(body)
	}
	fmt.Fprintf(&b, "\n\nChunk language: %s\nSection: %s\n<chunk>\n%s\n</chunk>", c.Lang, strings.Join(c.SectionPath, " › "), c.Text)
	return b.String()
}

func repairPrompt(verr error) string {
	return "That answer is invalid: " + strings.ReplaceAll(verr.Error(), "\n", "; ") +
		". Answer again with only the corrected JSON object."
}

// answerSchema is the JSON schema the server constrains the answer with.
// OpenAI's strict mode refuses length limits, so they are left out there;
// parseAnswer checks them either way.
func answerSchema(maxChars int, lengths bool) json.RawMessage {
	str := func(n int) map[string]any {
		s := map[string]any{"type": "string"}
		if lengths {
			s["maxLength"] = n
		}
		return s
	}
	threshold := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"subject": map[string]any{"type": "string"}, "comparator": map[string]any{"type": "string", "enum": comparators},
			"value": map[string]any{"type": "number"}, "unit": map[string]any{"type": "string"},
		},
		"required":             []string{"subject", "comparator", "value", "unit"},
		"additionalProperties": false,
	}
	s := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"context_header": str(maxChars), "hazard": str(maxFieldChars), "place": str(maxFieldChars),
			"season": str(maxFieldChars), "thresholds": map[string]any{"type": "array", "items": threshold},
			"unsourced_claim": str(maxClaimChars),
		},
		"required":             answerKeys,
		"additionalProperties": false,
	}
	b, _ := json.Marshal(s) // plain data: cannot fail
	return b
}

var answerKeys = []string{"context_header", "hazard", "place", "season", "thresholds", "unsourced_claim"}

// answer is a validated model answer.
type answer struct {
	ContextHeader  string              `json:"context_header"`
	Hazard         string              `json:"hazard"`
	Place          string              `json:"place"`
	Season         string              `json:"season"`
	Thresholds     []ProposedThreshold `json:"thresholds"`
	UnsourcedClaim string              `json:"unsourced_claim"`
}

func (a answer) enrichment(calls int) Enrichment {
	return Enrichment{
		Header: a.ContextHeader, Source: schema.HeaderModel, Thresholds: a.Thresholds, Calls: calls,
		Fields: schema.Fields{Hazard: a.Hazard, Place: a.Place, Season: a.Season, UnsourcedClaim: a.UnsourcedClaim},
	}
}

// parseAnswer checks a raw answer against the schema on our side (a server
// may ignore or only loosely apply the format) and returns every problem at
// once, for the repair prompt.
func parseAnswer(raw string, maxChars int) (answer, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stripFence(raw)), &obj); err != nil {
		return answer{}, fmt.Errorf("not a JSON object: %v", err)
	}
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	for _, k := range answerKeys {
		if _, ok := obj[k]; !ok {
			bad("missing key %q", k)
		}
	}
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(answerKeys, k) {
			bad("unexpected key %q", k)
		}
	}
	var a answer
	str := func(key string, dst *string, maxLen int) {
		if v, ok := obj[key]; ok {
			if isNull(v) || json.Unmarshal(v, dst) != nil {
				bad("%s: want a string", key)
			}
			*dst = strings.TrimSpace(*dst)
			checkLine(key, *dst, maxLen, bad)
		}
	}
	str("context_header", &a.ContextHeader, maxChars)
	str("hazard", &a.Hazard, maxFieldChars)
	str("place", &a.Place, maxFieldChars)
	str("season", &a.Season, maxFieldChars)
	str("unsourced_claim", &a.UnsourcedClaim, maxClaimChars)
	a.Hazard, a.Season = snakeCase(a.Hazard), snakeCase(a.Season)
	if _, ok := obj["context_header"]; ok {
		switch n := len(sentence.Split(a.ContextHeader)); {
		case a.ContextHeader == "":
			bad("context_header: empty")
		case n > 1:
			bad("context_header: %d sentences, want one", n)
		}
	}
	if v, ok := obj["thresholds"]; ok {
		a.Thresholds = parseThresholds(v, bad)
	}
	if err := errors.Join(errs...); err != nil {
		return answer{}, err
	}
	return a, nil
}

func parseThresholds(v json.RawMessage, bad func(string, ...any)) []ProposedThreshold {
	var items []map[string]json.RawMessage
	if isNull(v) || json.Unmarshal(v, &items) != nil {
		bad("thresholds: want an array of objects")
		return nil
	}
	out := make([]ProposedThreshold, 0, len(items))
	for i, it := range items {
		var t ProposedThreshold
		for _, k := range []string{"subject", "comparator", "value", "unit"} {
			if _, ok := it[k]; !ok {
				bad("thresholds[%d]: missing key %q", i, k)
			}
		}
		if len(it) != 4 {
			bad("thresholds[%d]: want exactly subject, comparator, value and unit", i)
		}
		dec := func(k string, dst any, want string) {
			if raw, ok := it[k]; ok && (isNull(raw) || json.Unmarshal(raw, dst) != nil) {
				bad("thresholds[%d].%s: want %s", i, k, want)
			}
		}
		dec("subject", &t.Subject, "a string")
		dec("comparator", &t.Comparator, "a string")
		dec("value", &t.Value, "a number")
		dec("unit", &t.Unit, "a string")
		t.Subject = snakeCase(t.Subject)
		if _, ok := it["comparator"]; ok && !slices.Contains(comparators, t.Comparator) {
			bad("thresholds[%d].comparator %q: want one of %s", i, t.Comparator, strings.Join(comparators, ", "))
		}
		if math.IsNaN(t.Value) || math.IsInf(t.Value, 0) {
			bad("thresholds[%d].value: want a finite number", i)
		}
		out = append(out, t)
	}
	return out
}

func checkLine(key, s string, maxLen int, bad func(string, ...any)) {
	if strings.ContainsAny(s, "\r\n") {
		bad("%s: contains a line break", key)
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		bad("%s: %d characters, want at most %d", key, n, maxLen)
	}
}

// snakeCase folds "Rip Current" to "rip_current": the model is asked for
// ids, and a near miss is normalised rather than sent back.
func snakeCase(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(s)), "_"))
}

// stripFence removes a ```json fence some servers add without a grammar.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// isNull reports a JSON null, which decodes into a Go zero value without
// complaint but is not the string, number or array the schema asks for.
func isNull(v json.RawMessage) bool { return strings.TrimSpace(string(v)) == "null" }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
