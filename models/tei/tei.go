package tei

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
	"strconv"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/models/server"
	"github.com/ocean-safety/ingest/text/sentence"
)

var (
	_ server.Embedder = (*Client)(nil)
	_ server.Server   = (*Client)(nil)
)

// Client speaks TEI's API (GET /info, POST /embed), one try per call.
type Client struct {
	base  string // the server's root as the user gave it, without a trailing slash
	http  *http.Client
	retry *server.Retrier // for the start-up look-up
}

// New is the client of the TEI server at addr.
func New(addr string, timeout time.Duration, r *server.Retrier) (*Client, error) {
	if addr == "" {
		return nil, errors.New("no text-embeddings-inference server given: set tei_url (INGEST_TEI_URL)")
	}
	if u, err := url.Parse(addr); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("TEI address %q is not an http(s) URL: fix tei_url (INGEST_TEI_URL)", redact.URL(addr))
	}
	return &Client{base: strings.TrimRight(addr, "/"), http: server.NewHTTPClient(timeout), retry: r}, nil
}

func (c *Client) Where() string { return "tei at " + redact.URL(c.base) }

// hint says which setting points at the server.
func (c *Client) hint() string { return "tei_url (INGEST_TEI_URL)" }

// info is what /info says of the model the server serves.
type info struct {
	ModelID        string          `json:"model_id"`
	ModelSHA       string          `json:"model_sha"` // the Hub revision; null for a model read from a folder
	ModelDType     string          `json:"model_dtype"`
	ModelType      json.RawMessage `json:"model_type"`
	MaxInputLength int             `json:"max_input_length"`
}

// Ping reads /info, once: it shows the server answers and is TEI.
func (c *Client) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.retry.Timeout)
	defer cancel()
	var in info
	if _, err := c.do(ctx, http.MethodGet, "/info", nil, &in); err != nil {
		return fmt.Errorf("%s is unreachable or not text-embeddings-inference (%v): fix %s", c.Where(), err, c.hint())
	}
	return nil
}

// maxShownID bounds the model name a server says, in a message.
const maxShownID = 200

// Lookup checks that the server serves model (TEI serves one, the one
// /info names) and reads its digest and window. The digest is the model's
// Hub revision when TEI says it; for a model read from a folder, a hash
// of what /info says of it, which a redeployment with other settings
// changes but other weights in the same folder do not. Its width is not
// said: the embedder learns it from one call.
func (c *Client) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	var in info
	err := c.retry.Do(ctx, func(ctx context.Context) error {
		_, err := c.do(ctx, http.MethodGet, "/info", nil, &in)
		return err
	})
	if err != nil {
		return server.ModelInfo{}, fmt.Errorf("%s: info: %w", c.Where(), err)
	}
	if in.ModelID != model {
		return server.ModelInfo{}, server.ErrModelMissing(c.Where(), model,
			fmt.Sprintf("it serves %q: name that model, or point tei_url at the server of %s", sentence.Cap(in.ModelID, maxShownID), model))
	}
	return server.ModelInfo{Digest: digest(in), Window: in.MaxInputLength}, nil
}

// digest names the weights: "rev:" and the Hub revision's first 12 hex
// digits, else "info-sha256:" and a hash of the model's entry.
func digest(in info) string {
	if sha := strings.ToLower(in.ModelSHA); len(sha) >= 12 && isHex(sha) {
		return "rev:" + sha[:12]
	}
	b, _ := json.Marshal(in) // plain data: cannot fail
	sum := sha256.Sum256(b)
	return "info-sha256:" + hex.EncodeToString(sum[:])[:12]
}

func isHex(s string) bool {
	return strings.Trim(s, "0123456789abcdef") == ""
}

// Embed embeds req.Texts with truncation off: an input over the model's
// window is refused (413), not cut into a vector of its start.
func (c *Client) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	body := map[string]any{"inputs": req.Texts, "truncate": false, "normalize": true}
	var vecs [][]float32
	h, err := c.do(ctx, http.MethodPost, "/embed", body, &vecs)
	if err != nil {
		return server.EmbedResult{}, err
	}
	if len(vecs) != len(req.Texts) {
		return server.EmbedResult{}, fmt.Errorf("%d vectors for %d inputs", len(vecs), len(req.Texts)) // malformed: retried
	}
	tokens, _ := strconv.Atoi(h.Get("X-Compute-Tokens"))
	return server.EmbedResult{Vectors: vecs, Tokens: max(tokens, 0)}, nil
}

// do makes one JSON call and returns the answer's header. A status of 400
// or more is a *StatusError with the server's message; an unreadable 2xx is
// a plain error, retried as malformed.
func (c *Client) do(ctx context.Context, method, path string, in, out any) (http.Header, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, server.RedactErr(err)
	}
	defer resp.Body.Close()
	buf := server.AnswerBuffers.Get().(*bytes.Buffer)
	defer server.AnswerBuffers.Put(buf)
	if err := server.ReadAnswer(buf, resp.Body); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if resp.StatusCode >= 400 {
		return nil, &server.StatusError{Code: resp.StatusCode, Msg: message(b)}
	}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("unreadable answer: %v", err)
	}
	return resp.Header, nil
}

// message is the message of TEI's {"error": …, "error_type": …}, else the
// body, shortened.
func message(b []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		return sentence.Cap(e.Error, 500)
	}
	return sentence.Cap(strings.TrimSpace(string(b)), 200)
}
