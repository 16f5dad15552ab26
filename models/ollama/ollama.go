package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/schema"
)

const (
	ollamaPort = "11434"
	// ollamaKeepAlive keeps the model loaded between a run's calls (Ollama's
	// default, 5 minutes, can unload it while a slow stage catches up) and
	// frees it soon after.
	ollamaKeepAlive = 30 * time.Minute
)

var (
	_ server.Chatter  = (*Client)(nil)
	_ server.Embedder = (*Client)(nil)
	_ server.Server   = (*Client)(nil)
)

// Client speaks Ollama's API through its Go client, one try per call.
type Client struct {
	base   *url.URL
	client *api.Client
	http   *http.Client    // the client's, for the calls made without it (embed)
	retry  *server.Retrier // for the start-up look-ups
	auth   bool            // requests signed by Ollama's client (embed)
}

func New(host string, auth bool, timeout time.Duration, r *server.Retrier) (*Client, error) {
	base, err := OllamaBase(host)
	if err != nil {
		return nil, err
	}
	hc := server.NewHTTPClient(timeout)
	return &Client{base: base, client: api.NewClient(base, hc), http: hc, retry: r, auth: auth || base.Hostname() == "ollama.com"}, nil
}

// OllamaBase resolves the server's address: the one given (the command
// line gives $OLLAMA_HOST when no flag or setting does), else the local
// default; a bare host gets http:// and Ollama's port.
func OllamaBase(host string) (*url.URL, error) {
	if host == "" {
		host = defaultOllamaHost
	}
	if !strings.Contains(host, "://") {
		host = "http://" + host
	}
	u, err := url.Parse(strings.TrimRight(host, "/"))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("ollama host %q is not a URL: fix ollama_host (OLLAMA_HOST)", redact.URL(host))
	}
	if u.Port() == "" && u.Scheme == "http" {
		u.Host = net.JoinHostPort(u.Hostname(), ollamaPort)
	}
	return u, nil
}

func (o *Client) Where() string { return "ollama at " + redact.URL(o.base.String()) }

// hint says which setting points at the server.
func (o *Client) hint() string { return "ollama_host (OLLAMA_HOST)" }

func (o *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, o.retry.Timeout)
	defer cancel()
	if _, err := o.client.Version(ctx); err != nil {
		return fmt.Errorf("%s is unreachable (%v): start it with `ollama serve`, or point %s at it", o.Where(), ollamaErr(server.RedactErr(err)), o.hint())
	}
	return nil
}

// Lookup finds model in /api/tags (its digest) and reads its width and
// context window from /api/show.
func (o *Client) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	var list *api.ListResponse
	err := o.retry.Do(ctx, func(ctx context.Context) (err error) {
		list, err = o.client.List(ctx)
		return ollamaErr(err)
	})
	if err != nil {
		return server.ModelInfo{}, fmt.Errorf("%s: list models: %w", o.Where(), err)
	}
	var found *api.ListModelResponse
	for i, m := range list.Models {
		if sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model) {
			found = &list.Models[i]
			break
		}
	}
	if found == nil {
		return server.ModelInfo{}, server.ErrModelMissing(o.Where(), model, fmt.Sprintf("run `ollama pull %s` there, or change the model", model))
	}
	var show *api.ShowResponse
	err = o.retry.Do(ctx, func(ctx context.Context) (err error) {
		show, err = o.client.Show(ctx, &api.ShowRequest{Model: found.Name})
		return ollamaErr(err)
	})
	if err != nil {
		return server.ModelInfo{}, fmt.Errorf("%s: show %s: %w", o.Where(), model, err)
	}
	info := server.ModelInfo{Digest: shortDigest(found.Digest)}
	info.Dims, info.Window = modelInfoInt(show.ModelInfo, "embedding_length"), modelInfoInt(show.ModelInfo, "context_length")
	return info, nil
}

// sameOllamaModel matches a listed name to a requested one: "bge-m3" is
// "bge-m3:latest".
func sameOllamaModel(listed, want string) bool {
	if !strings.Contains(want, ":") {
		want += ":latest"
	}
	if !strings.Contains(listed, ":") {
		listed += ":latest"
	}
	return listed == want
}

// shortDigest is "sha256:" and the first 12 hex digits: enough to tell
// models apart in a name, as Ollama's own listing does.
func shortDigest(d string) string {
	d = strings.TrimPrefix(d, "sha256:")
	return "sha256:" + d[:min(12, len(d))]
}

// modelInfoInt reads "<architecture>.<key>" from /api/show's model_info.
func modelInfoInt(info map[string]any, key string) int {
	arch, _ := info["general.architecture"].(string)
	if v, ok := info[arch+"."+key].(float64); ok && v > 0 {
		return int(v)
	}
	return 0
}

func (o *Client) Chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	msgs := make([]api.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = api.Message{Role: m.Role, Content: m.Content}
	}
	stream := false
	opts := map[string]any{"temperature": 0, "seed": prompt.PromptSeed, "num_predict": prompt.AnswerTokens}
	if req.NumCtx > 0 {
		opts["num_ctx"] = req.NumCtx
	}
	var content strings.Builder
	var m api.Metrics
	done := false
	err := o.client.Chat(ctx, &api.ChatRequest{
		Model: req.Model, Messages: msgs, Stream: &stream, Format: req.Schema,
		KeepAlive: &api.Duration{Duration: ollamaKeepAlive}, Options: opts,
		// A header needs no reasoning; Ollama turns thinking on for models
		// that can, which spends the answer's tokens before the JSON.
		Think: &api.ThinkValue{Value: false},
	}, func(r api.ChatResponse) error {
		content.WriteString(r.Message.Content)
		done = r.Done
		if r.Done {
			m = r.Metrics
		}
		return nil
	})
	if err != nil {
		return server.ChatAnswer{}, ollamaErr(err)
	}
	if !done {
		return server.ChatAnswer{}, errors.New("the answer ended before done") // a malformed 200: retried
	}
	a := server.ChatAnswer{Content: content.String()}
	if m.PromptEvalCount > 0 || m.EvalCount > 0 {
		a.Usage = schema.Usage{Calls: 1, PromptTokens: int64(m.PromptEvalCount), AnswerTokens: int64(m.EvalCount),
			PromptSeconds: m.PromptEvalDuration.Seconds(), AnswerSeconds: m.EvalDuration.Seconds()}
	}
	a.Times = server.ServerTimes{Work: m.LoadDuration + m.PromptEvalDuration + m.EvalDuration, Total: m.TotalDuration, Load: m.LoadDuration}
	return a, nil
}

func (o *Client) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	truncate := false // an input over the window is an error, not a silently shortened vector
	opts := map[string]any{}
	if req.NumCtx > 0 {
		opts["num_ctx"] = req.NumCtx
	}
	body := &api.EmbedRequest{
		Model: req.Model, Input: req.Texts, Truncate: &truncate,
		KeepAlive: &api.Duration{Duration: ollamaKeepAlive}, Options: opts,
	}
	if o.auth {
		// Ollama's own signed requests: its client knows how.
		r, err := o.client.Embed(ctx, body)
		if err != nil {
			return server.EmbedResult{}, ollamaErr(err)
		}
		return server.EmbedResult{Vectors: r.Embeddings, Tokens: r.PromptEvalCount}, nil
	}
	var res server.EmbedResult
	err := o.post(ctx, "/api/embed", body, func(b []byte) error {
		var err error
		res, err = decodeOllamaEmbed(b, len(req.Texts), req.Dims)
		return err
	})
	return res, err
}

// post sends a JSON request to path and hands the answer's bytes to read,
// which must not keep them. An error status becomes a *StatusError with
// the server's message, as Ollama's client makes it.
func (o *Client) post(ctx context.Context, path string, in any, read func([]byte) error) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.base.JoinPath(path).String(), bytes.NewReader(data))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	resp, err := o.http.Do(hr)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf := server.AnswerBuffers.Get().(*bytes.Buffer)
	defer server.AnswerBuffers.Put(buf)
	if err := server.ReadAnswer(buf, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode >= http.StatusBadRequest {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(buf.Bytes(), &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(buf.Bytes()[:min(buf.Len(), 512)]))
		}
		return &server.StatusError{Code: resp.StatusCode, Msg: e.Error}
	}
	return read(buf.Bytes())
}

// ollamaErr turns the client's status errors into ours, so the retrier and
// the batch bisection read one type.
func ollamaErr(err error) error {
	var se api.StatusError
	var ae api.AuthorizationError
	switch {
	case errors.As(err, &se):
		return &server.StatusError{Code: se.StatusCode, Msg: se.ErrorMessage}
	case errors.As(err, &ae):
		return &server.StatusError{Code: ae.StatusCode, Msg: ae.Status}
	}
	return err
}

const defaultOllamaHost = "http://127.0.0.1:11434"
