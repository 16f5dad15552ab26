package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/ocean-safety/ingest/models/server"
)

// call makes one request to the API's path (in, when not nil, sent as
// JSON; signed when the client signs) and hands the answer's bytes to
// read, which must not keep them. The answer is bounded by the shared
// transport (server.NewHTTPClient). A status of 400 or more is a
// *server.StatusError with the server's message.
func (o *Client) call(ctx context.Context, method, path string, in any, read func([]byte) error) error {
	var body io.Reader
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, o.base.JoinPath(path).String(), body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if o.signer != nil {
		o.signer.sign(req, path, time.Now())
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
	if resp.StatusCode >= http.StatusBadRequest {
		return statusError(resp.StatusCode, buf.Bytes())
	}
	return read(buf.Bytes())
}

// maxMessage bounds a refusal's body quoted as its message.
const maxMessage = 512

// statusError is a refusal with Ollama's message, {"error": "…"} (and,
// for a signature ollama.com does not know, where to sign in), else the
// body, shortened.
func statusError(code int, b []byte) *server.StatusError {
	var e struct {
		Error     string `json:"error"`
		SigninURL string `json:"signin_url"`
	}
	msg := strings.TrimSpace(strings.ToValidUTF8(string(b[:min(len(b), maxMessage)]), ""))
	if json.Unmarshal(b, &e) == nil && e.Error != "" {
		msg = e.Error
	}
	if e.SigninURL != "" {
		msg += " (sign in at " + e.SigninURL + ")"
	}
	return &server.StatusError{Code: code, Msg: msg}
}

// into reads an answer into out.
func into(out any) func([]byte) error {
	return func(b []byte) error {
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("unreadable answer: %v", err) // a malformed 200: retried
		}
		return nil
	}
}
