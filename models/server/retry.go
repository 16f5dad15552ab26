package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/ocean-safety/ingest/models"
)

const MaxRetryAfter = 2 * time.Minute // a Retry-After beyond this is a server asking us to stop, not to wait

// Retrier runs one model call with a timeout per attempt and retries what a
// later attempt can cure: 429 (after the server's Retry-After), 5xx,
// timeouts, dropped connections and malformed 200s. A 4xx is final; so is
// the caller's cancellation, at once.
type Retrier struct {
	Policy  models.RetryPolicy
	Timeout time.Duration
	Retries atomic.Int64 // attempts beyond the first, for the report
	Log     *slog.Logger
}

func (r *Retrier) logger() *slog.Logger {
	if r.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.Log
}

// Do runs op until it succeeds, fails for good or the tries run out. op gets
// a context that ends with the attempt's timeout, and returns final(err) for
// an answer no retry can change.
func (r *Retrier) Do(ctx context.Context, op func(ctx context.Context) error) error {
	p := r.Policy.WithDefaults()
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval = p.Initial, p.Max
	tries := 0
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		tries++
		if tries > 1 {
			r.Retries.Add(1)
		}
		err := r.attempt(ctx, op)
		var perm *backoff.PermanentError
		if err != nil && !errors.As(err, &perm) && tries < p.Tries {
			r.logger().Warn("model call failed; trying again", "try", tries, "of", p.Tries, "error", err)
		}
		return struct{}{}, err
	}, backoff.WithBackOff(b), backoff.WithMaxTries(uint(p.Tries)), backoff.WithMaxElapsedTime(0))
	if err == nil {
		return nil
	}
	if cerr := context.Cause(ctx); cerr != nil {
		return cerr
	}
	var perm *backoff.PermanentError
	if errors.As(err, &perm) {
		err = perm.Unwrap() // the last try's permanent error is returned wrapped
	}
	if tries > 1 {
		return fmt.Errorf("%w (after %d tries)", err, tries)
	}
	return err
}

// attempt runs op once under the per-call timeout and classifies its error.
func (r *Retrier) attempt(ctx context.Context, op func(ctx context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	actx, info := WithAttempt(actx)
	err := RedactErr(op(actx))
	if err == nil {
		return nil
	}
	if cerr := context.Cause(ctx); cerr != nil {
		return backoff.Permanent(cerr) // the caller gave up: no more tries
	}
	return classify(err, info, actx.Err() != nil, r.Timeout)
}

// classify decides whether another try can help, from what the transport
// saw (status, Retry-After) and the error.
func classify(err error, info *AttemptInfo, timedOut bool, timeout time.Duration) error {
	var perm *backoff.PermanentError
	if errors.As(err, &perm) {
		return err
	}
	if timedOut || isTimeout(err) {
		return fmt.Errorf("no answer within %s: %w", timeout, err)
	}
	status, msg := info.Status, err.Error()
	var se *StatusError
	if errors.As(err, &se) {
		status, msg = se.Code, se.Msg
	}
	switch {
	case status == http.StatusTooManyRequests:
		se := &StatusError{Code: status, Msg: msg}
		if info.RetryAfter > 0 {
			return retryAfterError{se, info.RetryAfter}
		}
		return se
	case status >= 500:
		return &StatusError{Code: status, Msg: msg}
	case status >= 400:
		return backoff.Permanent(&StatusError{Code: status, Msg: msg})
	case status >= 200:
		return fmt.Errorf("malformed answer: %w", err) // a 2xx we could not read: retry
	default:
		return err // no answer at all: refused or dropped connection; retry, bounded
	}
}

// Final marks an answer no retry can change (a vector of the wrong width).
func Final(err error) error { return backoff.Permanent(err) }

// StatusError is a model server's refusal: its HTTP status and message.
type StatusError struct {
	Code int
	Msg  string
}

func (e *StatusError) Error() string {
	if e.Msg == "" {
		return fmt.Sprintf("server answered %d %s", e.Code, http.StatusText(e.Code))
	}
	return fmt.Sprintf("server answered %d: %s", e.Code, e.Msg)
}

// InvalidInput reports whether err is the server refusing an input (a 400,
// 413 or 422, or the context-length complaint some servers send as a 500):
// the kind of error that bisecting a batch can pin on one input.
func InvalidInput(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		return true
	}
	m := strings.ToLower(se.Msg)
	return se.Code >= 500 && (strings.Contains(m, "context length") || strings.Contains(m, "input length") || strings.Contains(m, "too long"))
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// retryAfterError is a 429 that says when to come back. backoff's own
// RetryAfterError drops the status; this keeps it for the final error.
type retryAfterError struct {
	*StatusError
	after time.Duration
}

func (e retryAfterError) Unwrap() error { return e.StatusError }

// As lets backoff.Retry find the wait it should honour.
func (e retryAfterError) As(target any) bool {
	if t, ok := target.(**backoff.RetryAfterError); ok {
		*t = &backoff.RetryAfterError{Duration: e.after}
		return true
	}
	return false
}

// AttemptInfo is what the transport saw of one attempt's response.
type AttemptInfo struct {
	Status     int
	RetryAfter time.Duration
}

type AttemptKey struct{}

func WithAttempt(ctx context.Context) (context.Context, *AttemptInfo) {
	info := &AttemptInfo{}
	return context.WithValue(ctx, AttemptKey{}, info), info
}

// observingTransport records each response's status and Retry-After in the
// request's AttemptInfo (the Ollama client turns a 429 into an error without
// its headers; this is how its Retry-After still reaches the retrier), and
// bounds its body (boundedBody): the Ollama client reads whole answers of
// its own, a listing of models or a model's details, and a hostile server
// sending one without end filled memory (18 GB before a 5 s timeout).
type observingTransport struct{ base http.RoundTripper }

func (t observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if info, ok := req.Context().Value(AttemptKey{}).(*AttemptInfo); ok {
		info.Status = resp.StatusCode
		info.RetryAfter = RetryAfter(resp.Header, time.Now())
	}
	resp.Body = &boundedBody{ReadCloser: resp.Body}
	return resp, nil
}

// RetryAfter reads retry-after-ms (OpenAI's) or Retry-After (seconds or an
// HTTP date), capped at maxRetryAfter; 0 when absent or unreadable.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	var d time.Duration
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		d = time.Duration(ms * float64(time.Millisecond))
	} else if v := h.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s > 0 {
			d = time.Duration(s) * time.Second
		} else if t, err := http.ParseTime(v); err == nil {
			d = t.Sub(now)
		}
	}
	return max(0, min(d, MaxRetryAfter))
}

// maxIdleConns is how many connections to a model server stay open between
// calls: above any sensible --llm-concurrency plus --embed-concurrency
// (net/http keeps 2, and more concurrent calls would dial anew each time).
const maxIdleConns = 32

// NewHTTPClient is the client every model call goes through: a timeout per
// request (the Ollama client has none of its own) and the observing transport.
func NewHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = maxIdleConns
	return &http.Client{Timeout: timeout, Transport: observingTransport{base: t}}
}
