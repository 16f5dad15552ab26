package modelfake

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// chatCall is what the fake reads of a call before it answers.
type chatCall struct {
	prompt string         // the messages as the model reads them (chat only)
	numCtx int            // options.num_ctx (Ollama)
	model  string         // the model asked for
	schema map[string]any // the answer schema: Ollama's format, OpenAI's response_format.json_schema.schema; nil: none
}

// callOf reads a call's body; a body it cannot read is a call with no
// prompt (the handler refuses it).
func callOf(path string, body []byte) chatCall {
	var req struct {
		Model    string          `json:"model"`
		Messages []chatMessage   `json:"messages"`
		Format   json.RawMessage `json:"format"`
		Options  struct {
			NumCtx int `json:"num_ctx"`
		} `json:"options"`
		ResponseFormat struct {
			JSONSchema struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	_ = json.Unmarshal(body, &req)
	c := chatCall{model: req.Model, numCtx: req.Options.NumCtx}
	if slotKind(path) == "chat" {
		c.prompt = template(req.Messages)
	}
	raw := req.Format
	if path == OpenAIChat {
		raw = req.ResponseFormat.JSONSchema.Schema
	}
	_ = json.Unmarshal(raw, &c.schema) // "json" or nothing: no schema
	return c
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// template is the messages as a chat template lays them out for the model:
// what its prompt cache compares.
func template(msgs []chatMessage) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString("<|" + m.Role + "|>\n")
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	b.WriteString("<|assistant|>\n")
	return b.String()
}

// cl100k is the BPE tokenizer of Options.BPE, loaded once, from the copy
// the loader module embeds (no network).
var cl100k = sync.OnceValue(func() *tiktoken.Tiktoken {
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		panic("modelfake: cl100k_base: " + err.Error()) // embedded data: cannot fail
	}
	return enc
})

// tokens counts text as the fake's model does.
func (s *Server) tokens(text string) int {
	if s.opt.BPE {
		return len(cl100k().EncodeOrdinary(text))
	}
	return Tokens(text)
}

// freeWords are what a model writes in a string field no grammar holds to a
// list: words, not ids, and words for "nothing" too.
var freeWords = map[string]string{"hazard": "none", "season": "all seasons", "subject": "wave heights"}

// schemaAnswer is an answer to chunk that follows schema, as a model under
// grammar-constrained decoding writes it: the properties the schema names
// (in any order: JSON objects have none; an optional one left out when it
// is empty), each of its type, an enum's value chosen from the enum.
func (s *Server) schemaAnswer(chunk string, schema map[string]any) any {
	return s.value("", schema, chunk)
}

func (s *Server) value(name string, sch map[string]any, chunk string) any {
	if enum, ok := sch["enum"].([]any); ok {
		return pick(name, enum, chunk)
	}
	switch sch["type"] {
	case "object":
		props, _ := sch["properties"].(map[string]any)
		required, _ := sch["required"].([]any)
		out := map[string]any{}
		for k, p := range props {
			ps, _ := p.(map[string]any)
			v := s.value(k, ps, chunk)
			if !slices.Contains(required, any(k)) && isEmpty(v) {
				continue // a field that does not apply, left out as the schema allows
			}
			out[k] = v
		}
		return out
	case "array":
		items, _ := sch["items"].(map[string]any)
		out := []any{}
		for _, q := range s.quantities(chunk) {
			out = append(out, s.value("", items, q))
		}
		return out
	case "number", "integer":
		v, _ := strconv.ParseFloat(strings.ReplaceAll(quantity.FindStringSubmatch(chunk + " 0 m")[1], ",", "."), 64)
		return v
	}
	return s.freeString(name, chunk)
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	}
	return v == nil
}

// quantities are the texts the fake's thresholds are read from: the
// chunk's first quantity, and with UngroundedThreshold one it does not
// state.
func (s *Server) quantities(chunk string) []string {
	var out []string
	if m := quantity.FindString(chunk); m != "" {
		out = append(out, m)
	}
	if s.opt.UngroundedThreshold {
		out = append(out, "987.6 m")
	}
	return out
}

// freeString is an open string field's value, by what its name says.
func (s *Server) freeString(name, chunk string) string {
	switch {
	case strings.Contains(name, "header"):
		return fakeHeader(chunk)
	case name == "unit":
		if m := quantity.FindStringSubmatch(chunk); m != nil {
			return m[2]
		}
		return "m"
	}
	for field, words := range freeWords {
		if strings.Contains(name, field) {
			if s.opt.FreeAnswers {
				return words
			}
			if field == "hazard" {
				return ripHazard(chunk)
			}
			if field == "subject" {
				return "wave_height"
			}
		}
	}
	return ""
}

// pick chooses an enum's value: one the chunk speaks of, else "" when the
// enum allows it, else its first.
func pick(name string, enum []any, chunk string) any {
	var vals []string
	for _, v := range enum {
		if s, ok := v.(string); ok {
			vals = append(vals, s)
		}
	}
	if len(vals) == 0 {
		return enum[0]
	}
	prefer := map[string]string{"hazard": ripHazard(chunk), "subject": "wave_height", "comparator": "above"}
	for field, v := range prefer {
		if strings.Contains(name, field) && v != "" && slices.Contains(vals, v) {
			return v
		}
	}
	if slices.Contains(vals, "") {
		return ""
	}
	return vals[0]
}

func ripHazard(chunk string) string {
	if l := strings.ToLower(chunk); strings.Contains(l, "rip") || strings.Contains(l, "corrente") {
		return "rip_current"
	}
	return ""
}

// fakeHeader is the fake's one-sentence header: "About" and the chunk's
// first words.
func fakeHeader(chunk string) string {
	words := strings.FieldsFunc(chunk, func(r rune) bool { return strings.ContainsRune(" \t\n.!?…", r) })
	header := "About " + strings.Join(words[:min(10, len(words))], " ")
	if utf8.RuneCountInString(header) > 100 {
		header = string([]rune(header)[:100])
	}
	return strings.TrimSpace(header) + "."
}
