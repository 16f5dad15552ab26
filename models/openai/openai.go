package openai

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

var (
	_ server.Chatter  = (*Client)(nil)
	_ server.Embedder = (*Client)(nil)
	_ server.Server   = (*Client)(nil)
)

// Client speaks the OpenAI API (/v1/models, /v1/chat/completions,
// /v1/embeddings), as OpenAI and compatible servers (vLLM, llama.cpp,
// LM Studio, …) serve it. The API key is sent as a Bearer token and never
// appears in an error.
//
// It is written by hand, not with github.com/openai/openai-go/v3: tried
// (v3.98.0), the SDK made the binary 52 MB larger (117 → 170 MB: its
// Client holds every service, realtime and responses included), its
// float64 embeddings decoder put the client at 1.77× the ideal at 8 calls
// against 1.28× (BenchmarkEmbedThroughput/openai), it loses the message of
// vLLM's and plain-text error bodies, and it reads OPENAI_CUSTOM_HEADERS,
// OPENAI_ORG_ID and others from the environment with no way to turn that
// off, sending them to whatever server openai_base_url names. Three
// endpoints do not need it.
type Client struct {
	base   string // the API's root as the user gave it: https://host/v1
	keyEnv string
	key    string
	http   *http.Client
	retry  *server.Retrier
	models []openAIModel // from ping
}

type openAIModel struct {
	ID      string `json:"id"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

func New(base, keyEnv, key string, timeout time.Duration, r *server.Retrier) (*Client, error) {
	if base == "" {
		return nil, errors.New("no OpenAI-compatible server given: set openai_base_url (OPENAI_BASE_URL)")
	}
	if u, err := url.Parse(base); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("OpenAI base URL %q is not an http(s) URL: fix openai_base_url (OPENAI_BASE_URL)", redact.URL(base))
	}
	explicit := keyEnv != ""
	if !explicit {
		keyEnv = models.DefaultOpenAIKeyEnv
	}
	if explicit && key == "" {
		return nil, fmt.Errorf("the API key variable %s is empty or unset", keyEnv)
	}
	base = strings.TrimRight(base, "/") // used as given: …/v1, …/v1beta/openai, …/openai/v1
	return &Client{base: base, keyEnv: keyEnv, key: key, http: server.NewHTTPClient(timeout), retry: r}, nil
}

func (o *Client) Where() string { return "OpenAI-compatible server at " + redact.URL(o.base) }

// hint says which setting points at the server.
func (o *Client) hint() string { return "openai_base_url (OPENAI_BASE_URL)" }

// StrictSchema says the API's JSON-schema mode is strict (every key
// required, no maxLength): an ability the header writer asks a chat server
// for, by type assertion.
func (o *Client) StrictSchema() bool { return true }

// Ping lists the server's models, once: it both shows the server answers
// and gives lookup its list.
func (o *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, o.retry.Timeout)
	defer cancel()
	var list struct {
		Data []openAIModel `json:"data"`
	}
	err := o.Do(ctx, http.MethodGet, "/models", nil, &list)
	var se *server.StatusError
	switch {
	case errors.As(err, &se) && (se.Code == http.StatusUnauthorized || se.Code == http.StatusForbidden):
		return fmt.Errorf("%s refused the API key in %s (%d): set %s to a key it accepts", o.Where(), o.keyEnv, se.Code, o.keyEnv)
	case err != nil:
		return fmt.Errorf("%s is unreachable or not OpenAI-compatible (%v): fix %s", o.Where(), err, o.hint())
	}
	o.models = list.Data
	return nil
}

// Lookup finds model in the server's list. OpenAI-compatible servers publish
// no weights digest: the name carries a hash of the server and the model's
// entry instead, which changes when the model is redeployed but not when
// weights are swapped under the same entry.
func (o *Client) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	for _, m := range o.models {
		if m.ID == model {
			b, _ := json.Marshal(m) // plain data: cannot fail
			sum := sha256.Sum256(append([]byte(o.base+"\x00"), b...))
			return server.ModelInfo{Digest: "entry-sha256:" + hex.EncodeToString(sum[:])[:12], Slots: o.slots(ctx)}, nil
		}
	}
	return server.ModelInfo{}, server.ErrModelMissing(o.Where(), model, "check the model name, or load it on that server")
}

func (o *Client) Chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	body := map[string]any{
		"model": req.Model, "messages": req.Messages, "temperature": 0, "seed": prompt.PromptSeed, "max_tokens": prompt.AnswerTokens,
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": "chunk_enrichment", "strict": true, "schema": req.Schema,
		}},
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal string  `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
		Timings *struct { // llama-server's
			PromptMS    float64 `json:"prompt_ms"`
			PredictedMS float64 `json:"predicted_ms"`
		} `json:"timings"`
		Usage *struct {
			PromptTokens        int64 `json:"prompt_tokens"`
			CompletionTokens    int64 `json:"completion_tokens"`
			PromptTokensDetails struct {
				CachedTokens int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	}
	if err := o.Do(ctx, http.MethodPost, "/chat/completions", body, &out); err != nil {
		return server.ChatAnswer{}, err
	}
	if len(out.Choices) == 0 {
		return server.ChatAnswer{}, errors.New("the answer has no choices") // a malformed 200: retried
	}
	var a server.ChatAnswer
	if u := out.Usage; u != nil {
		a.Usage = schema.Usage{Calls: 1, PromptTokens: u.PromptTokens, CachedTokens: u.PromptTokensDetails.CachedTokens, AnswerTokens: u.CompletionTokens}
	}
	if t := out.Timings; t != nil {
		a.Times.Work = time.Duration((t.PromptMS + t.PredictedMS) * float64(time.Millisecond))
	}
	m := out.Choices[0].Message
	if m.Content == nil || *m.Content == "" {
		a.Content = m.Refusal // a refusal is an answer that fails validation
		return a, nil
	}
	a.Content = *m.Content
	return a, nil
}

func (o *Client) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	body := map[string]any{"model": req.Model, "input": req.Texts, "encoding_format": "float"}
	var out struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := o.Do(ctx, http.MethodPost, "/embeddings", body, &out); err != nil {
		return server.EmbedResult{}, err
	}
	if len(out.Data) != len(req.Texts) {
		return server.EmbedResult{}, fmt.Errorf("%d vectors for %d inputs", len(out.Data), len(req.Texts)) // malformed: retried
	}
	vecs := make([][]float32, len(req.Texts))
	for _, d := range out.Data {
		if d.Index < 0 || d.Index >= len(vecs) || vecs[d.Index] != nil {
			return server.EmbedResult{}, fmt.Errorf("the answer has a bad or repeated index %d", d.Index)
		}
		vecs[d.Index] = d.Embedding
	}
	return server.EmbedResult{Vectors: vecs, Tokens: out.Usage.PromptTokens}, nil
}

// Do makes one JSON call. A status of 400 or more is a *StatusError with the
// server's message; an unreadable 2xx is a plain error, retried as malformed.
func (o *Client) Do(ctx context.Context, method, path string, in, out any) error {
	return o.doURL(ctx, method, o.base+path, in, out)
}

// doURL is do at a whole address.
func (o *Client) doURL(ctx context.Context, method, url string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if o.key != "" {
		req.Header.Set("Authorization", "Bearer "+o.key)
	}
	resp, err := o.http.Do(req)
	if err != nil {
		return server.RedactErr(err)
	}
	defer resp.Body.Close()
	buf := server.AnswerBuffers.Get().(*bytes.Buffer)
	defer server.AnswerBuffers.Put(buf)
	if err := server.ReadAnswer(buf, resp.Body); err != nil {
		return err
	}
	b := buf.Bytes()
	if resp.StatusCode >= 400 {
		return &server.StatusError{Code: resp.StatusCode, Msg: o.redact(openAIMessage(b))}
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("unreadable answer: %v", err)
	}
	return nil
}

// openAIMessage is the message of {"error": {"message": …}} (OpenAI), of
// {"message": …} (vLLM) or of {"error": "…"}, else the body, shortened.
func openAIMessage(b []byte) string {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(b, &e) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var plain string
		switch {
		case json.Unmarshal(e.Error, &inner) == nil && inner.Message != "":
			return sentence.Cap(inner.Message, 500)
		case json.Unmarshal(e.Error, &plain) == nil && plain != "":
			return sentence.Cap(plain, 500)
		case e.Message != "":
			return sentence.Cap(e.Message, 500)
		}
	}
	return sentence.Cap(strings.TrimSpace(string(b)), 200)
}

// propsWait bounds the look at /props: a server that has none answers 404
// at once; one that hangs on it must not delay the run.
const propsWait = 5 * time.Second

// slots is what the server says of its own parallelism: llama-server's
// /props total_slots (at the API's root, or beside /v1); 0 when it says
// nothing (vLLM, OpenAI: learned at run time instead).
func (o *Client) slots(ctx context.Context) int {
	ctx, cancel := context.WithTimeout(ctx, propsWait)
	defer cancel()
	urls := []string{o.base + "/props"}
	if root, ok := strings.CutSuffix(o.base, "/v1"); ok {
		urls = append(urls, root+"/props")
	}
	for _, u := range urls {
		var props struct {
			TotalSlots int `json:"total_slots"`
		}
		if o.doURL(ctx, http.MethodGet, u, nil, &props) == nil && props.TotalSlots > 0 {
			return props.TotalSlots
		}
	}
	return 0
}

// redact removes the key from a server's message, in case one echoes it.
func (o *Client) redact(s string) string {
	if o.key == "" {
		return s
	}
	return strings.ReplaceAll(s, o.key, "[key]")
}
