package push

import (
	"bytes"
	"context"
	"crypto/rand"
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
	"unicode"

	"github.com/cenkalti/backoff/v5"

	"github.com/ocean-safety/ingest/deliver/push/pushconf"
)

// maxAnswer is the most of an answer the client reads: a status, a task
// URL or an error message needs far less, and a server that sends more is
// not one to trust with memory.
const maxAnswer = 1 << 20

// maxRetryAfter is the longest Retry-After a push waits; a server asking
// for more is reported ("run again later"), not waited for overnight.
const maxRetryAfter = 10 * time.Minute

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 5

// client sends a push's requests: one HTTP client for the push, the
// headers every request carries, retries, polling, and redaction of what
// servers say.
type client struct {
	http     *http.Client
	target   *url.URL
	name     string      // the target, redacted: what messages say
	headers  http.Header // secret ones: Authorization and the header file's
	secrets  secrets
	set      pushconf.Settings
	trace    string // the push's W3C trace id
	agent    string
	inFlight chan struct{}
	sleep    func(ctx context.Context, d time.Duration) error
}

func newClient(to *url.URL, set pushconf.Settings, headers http.Header, sec secrets, agent string) *client {
	c := &client{target: to, name: redactURL(to.String()), headers: headers, secrets: sec, set: set,
		trace: randomHex(16), agent: agent, inFlight: make(chan struct{}, set.InFlight), sleep: sleepCtx}
	c.http = &http.Client{CheckRedirect: c.checkRedirect}
	return c
}

// checkRedirect decides each redirect once. A request with a body (a
// POST) follows only a 307 or 308 to its own origin, which re-sends the
// body (GetBody): net/http turns a POST redirected by 301, 302 or 303 into
// a GET without its body, whose 200 would pass for an acknowledgement of
// data never delivered. A task poll (a GET) follows redirects on its own
// origin only: a status from another host is no word of the destination's.
// Any other redirect, and a loop, is an error naming both URLs. The secret
// headers go only to the destination's origin (net/http keeps
// Authorization for a subdomain and never knew the header file's names).
func (c *client) checkRedirect(req *http.Request, via []*http.Request) error {
	prev := via[len(via)-1]
	code := 0
	if req.Response != nil {
		code = req.Response.StatusCode
	}
	switch {
	case len(via) >= maxRedirects:
		return &redirectError{from: prev.URL, to: req.URL, code: code, why: fmt.Sprintf("stopped after %d redirects", maxRedirects)}
	case via[0].Method == http.MethodPost && code != http.StatusTemporaryRedirect && code != http.StatusPermanentRedirect:
		return &redirectError{from: prev.URL, to: req.URL, code: code, why: "a redirect of a POST other than 307 or 308 would drop its body"}
	case via[0].Method == http.MethodPost && !c.exactOrigin(req.URL):
		return &redirectError{from: prev.URL, to: req.URL, code: code, why: "a POST is re-sent to the destination's own origin only"}
	case !c.sameOrigin(req.URL):
		return &redirectError{from: prev.URL, to: req.URL, code: code, why: "a task is polled on the destination's own origin only"}
	}
	return nil
}

// redirectError is a redirect the push does not follow: it stops the
// push (retrying would meet it again).
type redirectError struct {
	from, to *url.URL
	code     int
	why      string
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("%s answered %d %s to %s: not followed (%s)", redactURL(e.from.String()), e.code,
		http.StatusText(e.code), redactURL(e.to.String()), e.why)
}

// sameOrigin reports whether u is the destination's host, on its scheme or
// https: where the secret headers may go.
func (c *client) sameOrigin(u *url.URL) bool {
	return strings.EqualFold(u.Host, c.target.Host) && (u.Scheme == c.target.Scheme || u.Scheme == "https")
}

// exactOrigin reports whether u has the destination's scheme and host:
// where a POST's body may be re-sent.
func (c *client) exactOrigin(u *url.URL) bool {
	return strings.EqualFold(u.Host, c.target.Host) && strings.EqualFold(u.Scheme, c.target.Scheme)
}

// answer is what a request came back with, read up to maxAnswer.
type answer struct {
	status int
	header http.Header
	body   []byte
	url    *url.URL // where it was answered, after redirects
	method string   // the method of the request answered, after redirects
}

// httpError is an answer the push does not go on from: a 4xx, or a 2xx it
// could not read. Its message is the server's, secrets removed.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// retryable reports the statuses worth another try: the server is busy or
// away (429, 5xx), the request timed out there (408), or a request with
// the same key is still being handled (409).
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500 || status == http.StatusRequestTimeout ||
		status == http.StatusConflict
}

// do sends one HTTP request within the in-flight bound and the timeout.
func (c *client) do(ctx context.Context, method string, u *url.URL, b *body, span string) (*answer, error) {
	select {
	case c.inFlight <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.inFlight }()
	ctx, cancel := context.WithTimeout(ctx, c.set.Timeout)
	defer cancel()
	var rd io.Reader
	if b != nil {
		rd = bytes.NewReader(b.gz)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return nil, err
	}
	if b != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("Idempotency-Key", b.key)
	}
	req.Header.Set(ContractHeader, strconv.Itoa(Contract))
	req.Header.Set("Traceparent", c.traceparent(span))
	req.Header.Set("User-Agent", c.agent)
	req.Header.Set("Accept", "application/json")
	if c.sameOrigin(u) {
		for k, vs := range c.headers {
			req.Header[k] = vs
		}
	}
	resp, err := c.http.Do(req)
	var re *redirectError
	if errors.As(err, &re) {
		return nil, &httpError{re.code, c.secrets.scrub(re.Error())}
	}
	if err != nil {
		return nil, errors.New(c.secrets.scrub(redactErr(err).Error()))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, fmt.Errorf("read the answer: %s", c.secrets.scrub(err.Error()))
	}
	if len(body) > maxAnswer {
		return nil, &httpError{resp.StatusCode, fmt.Sprintf("%d %s with an answer over %d bytes: not read further",
			resp.StatusCode, http.StatusText(resp.StatusCode), maxAnswer)}
	}
	return &answer{status: resp.StatusCode, header: resp.Header, body: body, url: resp.Request.URL, method: resp.Request.Method}, nil
}

// traceparent is the W3C trace context of a request: the push's trace id,
// the batch's span id, sampled.
func (c *client) traceparent(span string) string { return "00-" + c.trace + "-" + span + "-01" }

// redactErr removes credentials from the address an HTTP client's error
// quotes.
func redactErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %w", ue.Op, redactURL(ue.URL), ue.Err)
	}
	return err
}

// retry calls try until it succeeds, fails for good, or the retries are
// spent: 429, 5xx, 408, 409 and transport errors (timeouts among them)
// wait with exponential backoff and jitter, or for the server's
// Retry-After when it sends one.
func (c *client) retry(ctx context.Context, what string, count func(), try func() (*answer, error)) (*answer, error) {
	bo := backoff.NewExponentialBackOff()
	bo.InitialInterval, bo.MaxInterval, bo.RandomizationFactor = 500*time.Millisecond, 30*time.Second, 0.5
	for attempt := 0; ; attempt++ {
		a, err := try()
		var wait time.Duration
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			var he *httpError
			if errors.As(err, &he) {
				return nil, fmt.Errorf("%s: %w", what, err)
			}
		case !retryable(a.status):
			return a, nil
		default:
			var ok bool
			if wait, ok = retryAfter(a.header.Get("Retry-After"), time.Now()); ok && wait > maxRetryAfter {
				return nil, &httpError{a.status, fmt.Sprintf("%s: %s asks to retry after %s: run the push again later",
					what, c.describe(a), wait.Round(time.Second))}
			}
			err = errors.New(c.describe(a))
		}
		if attempt == c.set.Retries {
			return nil, fmt.Errorf("%s: %w (after %d tries)", what, err, attempt+1)
		}
		if wait == 0 {
			wait = bo.NextBackOff()
		}
		count()
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// describe is an answer as a message: its status and what the server said
// (its JSON error or message, else its text), cut short and with secrets
// removed.
func (c *client) describe(a *answer) string {
	msg := serverMessage(a.body)
	s := fmt.Sprintf("%d %s", a.status, http.StatusText(a.status))
	if msg != "" {
		s += ": " + msg
	}
	return c.secrets.scrub(s)
}

// serverMessage finds the message in an answer: error, message, detail or
// title of a JSON object (error may be an object with a message), else
// the text; control characters removed, at most 300 characters.
func serverMessage(b []byte) string {
	var v map[string]any
	msg := ""
	if json.Unmarshal(b, &v) == nil {
		for _, k := range []string{"error", "message", "detail", "title"} {
			switch x := v[k].(type) {
			case string:
				msg = x
			case map[string]any:
				msg, _ = x["message"].(string)
			}
			if msg != "" {
				break
			}
		}
	} else {
		msg = string(b)
	}
	msg = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, msg)
	msg = strings.Join(strings.Fields(msg), " ")
	if r := []rune(msg); len(r) > 300 {
		msg = string(r[:300]) + "…"
	}
	return msg
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
