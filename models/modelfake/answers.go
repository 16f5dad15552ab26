package modelfake

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Digest is the full digest the fake lists for a model.
func Digest(model string) string {
	sum := sha256.Sum256([]byte("modelfake:" + model))
	return hex.EncodeToString(sum[:])
}

// Vector is the embedding the fake returns for text: derived from a hash of
// the text, unit length, the same on every run.
func Vector(text string, dims int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(text))
	rng := rand.New(rand.NewPCG(h.Sum64(), 0x5eed))
	v := make([]float32, dims)
	var norm float64
	for i := range v {
		x := rng.Float64()*2 - 1
		v[i] = float32(x)
		norm += x * x
	}
	inv := float32(1 / math.Sqrt(norm))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// Tokens is the fake's token count of text: one per four characters.
func Tokens(text string) int { return (utf8.RuneCountInString(text) + 3) / 4 }

func (s *Server) version(w http.ResponseWriter, _ *request) {
	writeJSON(w, map[string]any{"version": "0.17.4"})
}

func (s *Server) tags(w http.ResponseWriter, _ *request) {
	models := []map[string]any{}
	for _, m := range s.opt.Models {
		name := m
		if !strings.Contains(name, ":") {
			name += ":latest"
		}
		models = append(models, map[string]any{
			"name": name, "model": name, "modified_at": "2026-01-01T00:00:00Z", "size": 1 << 30, "digest": Digest(m + s.opt.Weights),
			"details": map[string]any{"format": "gguf", "family": "fake"},
		})
	}
	writeJSON(w, map[string]any{"models": models})
}

func (s *Server) show(w http.ResponseWriter, r *request) {
	var req struct{ Model, Name string }
	_ = json.Unmarshal(r.body, &req)
	if !s.has(req.Model + req.Name) {
		writeError(w, OllamaShow, http.StatusNotFound, "model '"+req.Model+"' not found")
		return
	}
	info := map[string]any{"general.architecture": "fake"}
	if !s.opt.NoModelInfo {
		info["fake.embedding_length"] = s.opt.Dims
		info["fake.context_length"] = s.opt.ContextLength
	}
	writeJSON(w, map[string]any{"details": map[string]any{"family": "fake"}, "model_info": info, "capabilities": []string{"completion", "embedding"}})
}

func (s *Server) openAIModels(w http.ResponseWriter, r *request) {
	if !s.authorized(w, r) {
		return
	}
	data := []map[string]any{}
	for _, m := range s.opt.Models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1767225600, "owned_by": "modelfake"})
	}
	writeJSON(w, map[string]any{"object": "list", "data": data})
}

// has reports whether the fake serves model ("bge-m3" is "bge-m3:latest").
func (s *Server) has(model string) bool {
	return slices.ContainsFunc(s.opt.Models, func(m string) bool {
		return m == model || m+":latest" == model || m == model+":latest"
	})
}

func (s *Server) authorized(w http.ResponseWriter, r *request) bool {
	if s.opt.APIKey == "" || r.Header.Get("Authorization") == "Bearer "+s.opt.APIKey {
		return true
	}
	writeError(w, r.URL.Path, http.StatusUnauthorized, "fake: invalid API key")
	return false
}

type chatBody struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (s *Server) ollamaChat(w http.ResponseWriter, r *request) {
	content, ok := s.chatAnswer(w, r, OllamaChat)
	if ok {
		// Ollama counts every prompt token, cached or not; its prompt-eval
		// time is what the cache did not hold. The fake's latency is its
		// whole work on the call: reading what the cache did not hold,
		// up to half of it, and writing the answer, the rest.
		prompt, fresh := s.promptTokens(r)
		lat := s.currentLatency()
		readFor := lat / 2 * time.Duration(fresh) / time.Duration(max(prompt, 1))
		writeJSON(w, map[string]any{
			"model": "fake", "created_at": "2026-01-01T00:00:00Z", "done": true, "done_reason": "stop",
			"message":           map[string]any{"role": "assistant", "content": content},
			"prompt_eval_count": prompt, "eval_count": s.answerTokens(r, content),
			"prompt_eval_duration": int64(readFor), "eval_duration": int64(lat - readFor),
			// From arrival to the answer: the wait for a slot, then the
			// latency (or the fake's own work, when that is longer).
			"total_duration": int64(r.started.Sub(r.arrived) + max(lat, time.Since(r.started))),
		})
	}
}

func (s *Server) openAIChat(w http.ResponseWriter, r *request) {
	if !s.authorized(w, r) {
		return
	}
	content, ok := s.chatAnswer(w, r, OpenAIChat)
	if ok {
		prompt, fresh := s.promptTokens(r)
		writeJSON(w, map[string]any{
			"id": "chatcmpl-fake", "object": "chat.completion", "created": 1767225600, "model": "fake",
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": s.answerTokens(r, content),
				"prompt_tokens_details": map[string]any{"cached_tokens": prompt - fresh}},
		})
	}
}

// chatAnswer is the answer's JSON text for the chunk in the prompt.
func (s *Server) chatAnswer(w http.ResponseWriter, r *request, path string) (string, bool) {
	var req chatBody
	if err := json.Unmarshal(r.body, &req); err != nil {
		writeError(w, path, http.StatusBadRequest, "fake: "+err.Error())
		return "", false
	}
	if !s.has(req.Model) {
		writeError(w, path, http.StatusNotFound, "model '"+req.Model+"' not found")
		return "", false
	}
	if r.fault.Kind == SchemaViolation {
		return `{"context_header":"One sentence. And another\non a new line.","hazard":7,"thresholds":[{"subject":"surf","comparator":"over","value":"high"}]}`, true
	}
	chunk, prompt := "", ""
	for _, m := range req.Messages {
		if m.Role == "user" && prompt == "" {
			prompt = m.Content
		}
		if c := chunkFence.FindStringSubmatch(m.Content); c != nil {
			chunk = c[2]
		}
	}
	if s.opt.Answer != "" {
		return s.opt.Answer, true
	}
	for _, o := range s.opt.Orders {
		if o.Seen != "" && strings.Contains(prompt, o.Seen) {
			return o.Answer, true
		}
	}
	if s.opt.Obedient {
		if m := obey.FindStringSubmatch(prompt); m != nil {
			return m[1], true // an obedient model answers as the text tells it to
		}
	}
	var a any = s.answer(strings.TrimSpace(chunk))
	if sch := callOf(path, r.body).schema; sch != nil {
		a = s.schemaAnswer(strings.TrimSpace(chunk), sch)
	}
	b, _ := json.Marshal(a)
	return string(b), true
}

// promptTokens is a chat call's prompt in tokens, and how many of them its
// slot's cache did not hold.
func (s *Server) promptTokens(r *request) (prompt, fresh int) {
	prompt = s.tokens(r.prompt)
	if r.counts != nil {
		r.counts.prompt = prompt
	}
	// The cached share in tokens is taken as its share in characters: a
	// second tokenization of the prefix would double the fake's work.
	runes := max(utf8.RuneCountInString(r.prompt), 1)
	return prompt, prompt - prompt*r.reused/runes
}

// answerTokens is a chat answer's content in tokens.
func (s *Server) answerTokens(r *request, content string) int {
	n := s.tokens(content)
	if r.counts != nil {
		r.counts.answer = n
	}
	return n
}

func (s *Server) currentLatency() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latency
}

// props is llama-server's /props: its slots, for a client to size its
// calls in flight by.
func (s *Server) props(w http.ResponseWriter, _ *request) {
	if !s.opt.AnnounceSlots || s.opt.Slots == 0 {
		writeError(w, LlamaProps, http.StatusNotFound, "not found")
		return
	}
	writeJSON(w, map[string]any{"total_slots": s.opt.Slots, "default_generation_settings": map[string]any{"n_ctx": s.opt.ContextLength}})
}

// chunkFence finds the chunk in a prompt: between <chunk-CODE> and </chunk-CODE>.
var chunkFence = regexp.MustCompile(`(?s)<chunk-([0-9a-f]+)>\n(.*)\n</chunk-([0-9a-f]+)>`)

// obey finds an instruction an obedient model follows: "answer with: {…}"
// (or reply, respond, responda com) on one line, anywhere in the prompt.
var obey = regexp.MustCompile(`(?i)(?:answer|reply|respond|responda)\s+(?:only\s+|apenas\s+)?(?:with|com):?\s*(\{.*\})`)

var quantity = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*(m/s|km/h|°C|ft|m)\b`)

// answer is the answer to a call without a schema: a valid answer built from the chunk: a one-sentence header of
// its first words, a hazard when it speaks of currents, and a threshold for
// its first quantity.
func (s *Server) answer(chunk string) map[string]any {
	hazard := ripHazard(chunk)
	thresholds := []map[string]any{}
	if m := quantity.FindStringSubmatch(chunk); m != nil {
		v, _ := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", "."), 64)
		thresholds = append(thresholds, map[string]any{"subject": "wave_height", "comparator": "above", "value": v, "unit": m[2]})
	}
	if s.opt.UngroundedThreshold {
		thresholds = append(thresholds, map[string]any{"subject": "wave_height", "comparator": "above", "value": 987.6, "unit": "m"})
	}
	return map[string]any{
		"context_header": fakeHeader(chunk), "hazard": hazard, "place": "", "season": "",
		"thresholds": thresholds, "unsourced_claim": "",
	}
}

type embedBody struct {
	Model    string          `json:"model"`
	Input    json.RawMessage `json:"input"`
	Truncate *bool           `json:"truncate"`
	Options  struct {
		NumCtx int `json:"num_ctx"`
	} `json:"options"`
}

func (s *Server) ollamaEmbed(w http.ResponseWriter, r *request) {
	vecs, tokens, ok := s.embed(w, r, OllamaEmbed)
	if !ok {
		return
	}
	// The answer as encoding/json writes it, from vectors encoded once: a
	// benchmark measures the client, and a real server's encoding does not
	// run on the client's cores.
	var b bytes.Buffer
	b.WriteString(`{"model":"fake","embeddings":[`)
	for i, v := range vecs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodedVector(v))
	}
	fmt.Fprintf(&b, `],"prompt_eval_count":%d}`+"\n", tokens)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b.Bytes())
}

// encodedVectors caches vectors' JSON, keyed by the vector's bytes' hash;
// it is emptied when it grows past a bound.
var encodedVectors struct {
	sync.Mutex
	m map[uint64][]byte
}

func encodedVector(v []float32) []byte {
	h := fnv.New64a()
	var buf [4]byte
	for _, f := range v {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(f))
		h.Write(buf[:])
	}
	key := h.Sum64() ^ uint64(len(v))
	encodedVectors.Lock()
	defer encodedVectors.Unlock()
	if b, ok := encodedVectors.m[key]; ok {
		return b
	}
	b, _ := json.Marshal(v)
	if encodedVectors.m == nil || len(encodedVectors.m) > 4096 {
		encodedVectors.m = map[uint64][]byte{}
	}
	encodedVectors.m[key] = b
	return b
}

func (s *Server) openAIEmbed(w http.ResponseWriter, r *request) {
	if !s.authorized(w, r) {
		return
	}
	vecs, tokens, ok := s.embed(w, r, OpenAIEmbed)
	if ok {
		data := make([]map[string]any, len(vecs))
		for i, v := range vecs {
			data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
		}
		writeJSON(w, map[string]any{"object": "list", "model": "fake", "data": data, "usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
	}
}

// embed answers an embedding call: refused inputs, over-long inputs (refused
// unless truncation is on: Ollama's default, or TruncateSilently), vectors.
func (s *Server) embed(w http.ResponseWriter, r *request, path string) ([][]float32, int, bool) {
	var req embedBody
	var inputs []string
	if err := json.Unmarshal(r.body, &req); err != nil || json.Unmarshal(req.Input, &inputs) != nil {
		var one string
		if json.Unmarshal(req.Input, &one) != nil {
			writeError(w, path, http.StatusBadRequest, "fake: input must be a string or a list of strings")
			return nil, 0, false
		}
		inputs = []string{one}
	}
	if !s.has(req.Model) {
		writeError(w, path, http.StatusNotFound, "model '"+req.Model+"' not found")
		return nil, 0, false
	}
	window := s.opt.ContextLength
	if req.Options.NumCtx > 0 {
		window = min(window, req.Options.NumCtx)
	}
	truncate := s.opt.TruncateSilently || (path == OllamaEmbed && (req.Truncate == nil || *req.Truncate))
	return s.vectors(w, r, path, inputs, window, truncate)
}

// vectors embeds inputs: a refused input (a BadInput fault), an input over
// window unless truncate, else a vector each and the tokens read.
func (s *Server) vectors(w http.ResponseWriter, r *request, path string, inputs []string, window int, truncate bool) ([][]float32, int, bool) {
	tooLong := http.StatusBadRequest
	if path == TEIEmbed {
		tooLong = http.StatusRequestEntityTooLarge // TEI's validation error
	}
	dims, tokens := s.opt.Dims, 0
	if r.fault.Kind == WrongDims {
		dims--
	}
	vecs := make([][]float32, len(inputs))
	for i, in := range inputs {
		if r.fault.Kind == BadInput && r.fault.Match != "" && strings.Contains(in, r.fault.Match) {
			s.hitBadInput()
			writeError(w, path, http.StatusBadRequest, "fake: input "+itoa(i)+" is invalid")
			return nil, 0, false
		}
		n := s.tokens(in)
		if n > window && !truncate {
			writeError(w, path, tooLong, "the input length exceeds the context length")
			return nil, 0, false
		}
		tokens += min(n, window)
		vecs[i] = Vector(in, dims)
	}
	return vecs, tokens, true
}

func (s *Server) hitBadInput() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.Kind == BadInput {
			f.hits++
		}
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers in the error shape of the endpoint's API.
func writeError(w http.ResponseWriter, path string, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	if strings.HasPrefix(path, "/v1/") {
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": msg})
}

func itoa(n int) string { return strconv.Itoa(n) }
