package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

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

// Client speaks the part of Ollama's API a run uses (GET /api/version,
// GET /api/tags, POST /api/show, /api/chat and /api/embed), one try per
// call.
//
// It is written by hand, not with Ollama's module (github.com/ollama/ollama/api,
// used until v0.17.4): that brought six modules into the binary (Ollama's,
// an ordered map and the list under it, two JSON libraries and a YAML one)
// and golang.org/x/crypto/ssh for five JSON calls, read $OLLAMA_AUTH and
// $HOME itself, and made each status error its own way (now read one way:
// TestWireErrors). The requests are the same on the wire (TestWire,
// against what that client sent) but for a chat's Accept, application/json
// (the answer is one JSON object, "stream": false), and the User-Agent,
// Go's rather than a claim to be Ollama's command line.
type Client struct {
	base   *url.URL
	http   *http.Client
	retry  *server.Retrier // for the start-up look-ups
	signer *signer         // nil: requests are not signed
	key    string          // the signing key's path, for messages
}

// New is the client of the Ollama server at host. With auth, or for
// ollama.com, its requests are signed, as Ollama's own client signs them,
// with the key at key (Ollama's ~/.ollama/id_ed25519, which the command
// line resolves): see sign.go.
func New(host string, auth bool, key string, timeout time.Duration, r *server.Retrier) (*Client, error) {
	base, err := OllamaBase(host)
	if err != nil {
		return nil, err
	}
	o := &Client{base: base, http: server.NewHTTPClient(timeout), retry: r, key: key}
	if auth || base.Hostname() == "ollama.com" {
		if o.signer, err = loadSigner(key); err != nil {
			return nil, fmt.Errorf("%s: requests to it are signed (OLLAMA_AUTH is on, or it is ollama.com) with Ollama's key: %w", o.Where(), err)
		}
	}
	return o, nil
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
	var v struct {
		Version string `json:"version"`
	}
	err := o.call(ctx, http.MethodGet, "/api/version", nil, into(&v))
	var se *server.StatusError
	switch {
	case errors.As(err, &se) && (se.Code == http.StatusUnauthorized || se.Code == http.StatusForbidden):
		return fmt.Errorf("%s refused the request (%v): %s", o.Where(), err, o.signHint())
	case err != nil:
		return fmt.Errorf("%s is unreachable (%v): start it with `ollama serve`, or point %s at it", o.Where(), err, o.hint())
	}
	return nil
}

// signHint says how to make a refused server accept the requests.
func (o *Client) signHint() string {
	if o.signer == nil {
		return "if it wants signed requests, set OLLAMA_AUTH=1 to sign them with Ollama's key (~/.ollama/id_ed25519)"
	}
	return fmt.Sprintf("it does not accept the signature of the key in %s: for ollama.com, sign in with `ollama signin`", o.key)
}

// Lookup finds model in /api/tags (its digest) and reads its width and
// context window from /api/show.
func (o *Client) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	var list struct {
		Models []listedModel `json:"models"`
	}
	err := o.retry.Do(ctx, func(ctx context.Context) error {
		return o.call(ctx, http.MethodGet, "/api/tags", nil, into(&list))
	})
	if err != nil {
		return server.ModelInfo{}, fmt.Errorf("%s: list models: %w", o.Where(), err)
	}
	i := slices.IndexFunc(list.Models, func(m listedModel) bool {
		return sameOllamaModel(m.Name, model) || sameOllamaModel(m.Model, model)
	})
	if i < 0 {
		return server.ModelInfo{}, server.ErrModelMissing(o.Where(), model, fmt.Sprintf("run `ollama pull %s` there, or change the model", model))
	}
	found := list.Models[i]
	var show struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	err = o.retry.Do(ctx, func(ctx context.Context) error {
		return o.call(ctx, http.MethodPost, "/api/show", showRequest{Model: found.Name}, into(&show))
	})
	if err != nil {
		return server.ModelInfo{}, fmt.Errorf("%s: show %s: %w", o.Where(), model, err)
	}
	info := server.ModelInfo{Digest: shortDigest(found.Digest)}
	info.Dims, info.Window = modelInfoInt(show.ModelInfo, "embedding_length"), modelInfoInt(show.ModelInfo, "context_length")
	return info, nil
}

// listedModel is a model as /api/tags lists it.
type listedModel struct {
	Name   string `json:"name"`
	Model  string `json:"model"`
	Digest string `json:"digest"`
}

// showRequest is /api/show's request with every field Ollama's client sent,
// zero as it sent them (TestWire): the server reads model, and verbose
// false keeps the tokenizer's vocabulary out of model_info.
type showRequest struct {
	Model    string         `json:"model"`
	System   string         `json:"system"`
	Template string         `json:"template"`
	Verbose  bool           `json:"verbose"`
	Options  map[string]any `json:"options"`
	Name     string         `json:"name"`
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
	opts := map[string]any{"temperature": 0, "seed": prompt.PromptSeed, "num_predict": prompt.AnswerTokens}
	if req.NumCtx > 0 {
		opts["num_ctx"] = req.NumCtx
	}
	body := chatRequest{Model: req.Model, Messages: req.Messages, Format: req.Schema, KeepAlive: ollamaKeepAlive.String(), Options: opts}
	var a server.ChatAnswer
	err := o.call(ctx, http.MethodPost, "/api/chat", body, func(b []byte) (err error) {
		a, err = readChat(b)
		return err
	})
	return a, err
}

// chatRequest is /api/chat's request: one answer, not a stream, shaped by
// the JSON schema in format.
type chatRequest struct {
	Model     string               `json:"model"`
	Messages  []server.ChatMessage `json:"messages"`
	Stream    bool                 `json:"stream"` // false
	Format    json.RawMessage      `json:"format,omitempty"`
	KeepAlive string               `json:"keep_alive"`
	Options   map[string]any       `json:"options"`
	// Think false: a header needs no reasoning, and Ollama turns thinking
	// on for models that can, which spends the answer's tokens before
	// the JSON.
	Think bool `json:"think"`
}

// chatAnswer is /api/chat's answer, and what it says of the server's work.
type chatAnswer struct {
	Message struct {
		Content string `json:"content"`
	} `json:"message"`
	Done               bool          `json:"done"`
	Error              string        `json:"error"`
	TotalDuration      time.Duration `json:"total_duration"`
	LoadDuration       time.Duration `json:"load_duration"`
	PromptEvalCount    int           `json:"prompt_eval_count"`
	PromptEvalDuration time.Duration `json:"prompt_eval_duration"`
	EvalCount          int           `json:"eval_count"`
	EvalDuration       time.Duration `json:"eval_duration"`
}

// readChat reads a chat answer: one JSON object, or the lines of a stream
// (a server that streams anyway), whose contents join and whose last,
// done, line carries the figures.
func readChat(b []byte) (server.ChatAnswer, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	var content strings.Builder
	var last chatAnswer
	for {
		var r chatAnswer
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return server.ChatAnswer{}, fmt.Errorf("unreadable answer: %v", err)
		}
		if r.Error != "" {
			return server.ChatAnswer{}, errors.New(r.Error) // failed after it began: retried
		}
		content.WriteString(r.Message.Content)
		last = r
	}
	if !last.Done {
		return server.ChatAnswer{}, errors.New("the answer ended before done") // a malformed 200: retried
	}
	a := server.ChatAnswer{Content: content.String()}
	if last.PromptEvalCount > 0 || last.EvalCount > 0 {
		a.Usage = schema.Usage{Calls: 1, PromptTokens: int64(last.PromptEvalCount), AnswerTokens: int64(last.EvalCount),
			PromptSeconds: last.PromptEvalDuration.Seconds(), AnswerSeconds: last.EvalDuration.Seconds()}
	}
	a.Times = server.ServerTimes{Work: last.LoadDuration + last.PromptEvalDuration + last.EvalDuration, Total: last.TotalDuration, Load: last.LoadDuration}
	return a, nil
}

func (o *Client) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	opts := map[string]any{}
	if req.NumCtx > 0 {
		opts["num_ctx"] = req.NumCtx
	}
	body := embedRequest{Model: req.Model, Input: req.Texts, KeepAlive: ollamaKeepAlive.String(), Options: opts}
	var res server.EmbedResult
	err := o.call(ctx, http.MethodPost, "/api/embed", body, func(b []byte) (err error) {
		res, err = decodeOllamaEmbed(b, len(req.Texts), req.Dims)
		return err
	})
	return res, err
}

// embedRequest is /api/embed's request.
type embedRequest struct {
	Model     string         `json:"model"`
	Input     []string       `json:"input"`
	KeepAlive string         `json:"keep_alive"`
	Truncate  bool           `json:"truncate"` // false: an input over the window is an error, not a silently shortened vector
	Options   map[string]any `json:"options"`
}

const defaultOllamaHost = "http://127.0.0.1:11434"
