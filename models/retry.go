package models

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
)

// Retry defaults, each with its reason.
const (
	defaultTries        = 4                      // a restarting server or a short overload passes; a dead one fails in seconds
	defaultRetryInitial = 500 * time.Millisecond // a model server's 503 "loading" clears in about a second
	defaultRetryMax     = 10 * time.Second       // between two tries, so a run never sleeps long on one call
)

const maxRetryAfter = 2 * time.Minute // a Retry-After beyond this is a server asking us to stop, not to wait

// RetryPolicy bounds the tries of one model call. Zero fields take the defaults.
type RetryPolicy struct {
	Tries   int           // attempts in all, the first included
	Initial time.Duration // first back-off; each next one doubles, with ±50% jitter
	Max     time.Duration // longest back-off
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Tries <= 0 {
		p.Tries = defaultTries
	}
	if p.Initial <= 0 {
		p.Initial = defaultRetryInitial
	}
	if p.Max <= 0 {
		p.Max = defaultRetryMax
	}
	return p
}

// retrier runs one model call with a timeout per attempt and retries what a
// later attempt can cure: 429 (after the server's Retry-After), 5xx,
// timeouts, dropped connections and malformed 200s. A 4xx is final; so is
// the caller's cancellation, at once.
type retrier struct {
	policy  RetryPolicy
	timeout time.Duration
	retries atomic.Int64 // attempts beyond the first, for the report
	log     *slog.Logger
}

func (r *retrier) logger() *slog.Logger {
	if r.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.log
}

// do runs op until it succeeds, fails for good or the tries run out. op gets
// a context that ends with the attempt's timeout, and returns final(err) for
// an answer no retry can change.
func (r *retrier) do(ctx context.Context, op func(ctx context.Context) error) error {
	p := r.policy.withDefaults()
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval = p.Initial, p.Max
	tries := 0
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		tries++
		if tries > 1 {
			r.retries.Add(1)
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
func (r *retrier) attempt(ctx context.Context, op func(ctx context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	actx, info := withAttempt(actx)
	err := redactErr(op(actx))
	if err == nil {
		return nil
	}
	if cerr := context.Cause(ctx); cerr != nil {
		return backoff.Permanent(cerr) // the caller gave up: no more tries
	}
	return classify(err, info, actx.Err() != nil, r.timeout)
}

// classify decides whether another try can help, from what the transport
// saw (status, Retry-After) and the error.
func classify(err error, info *attemptInfo, timedOut bool, timeout time.Duration) error {
	var perm *backoff.PermanentError
	if errors.As(err, &perm) {
		return err
	}
	if timedOut || isTimeout(err) {
		return fmt.Errorf("no answer within %s: %w", timeout, err)
	}
	status, msg := info.status, err.Error()
	var se *StatusError
	if errors.As(err, &se) {
		status, msg = se.Code, se.Msg
	}
	switch {
	case status == http.StatusTooManyRequests:
		se := &StatusError{Code: status, Msg: msg}
		if info.retryAfter > 0 {
			return retryAfterError{se, info.retryAfter}
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

// final marks an answer no retry can change (a vector of the wrong width).
func final(err error) error { return backoff.Permanent(err) }

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

// invalidInput reports whether err is the server refusing an input (a 400,
// 413 or 422, or the context-length complaint some servers send as a 500):
// the kind of error that bisecting a batch can pin on one input.
func invalidInput(err error) bool {
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

// attemptInfo is what the transport saw of one attempt's response.
type attemptInfo struct {
	status     int
	retryAfter time.Duration
}

type attemptKey struct{}

func withAttempt(ctx context.Context) (context.Context, *attemptInfo) {
	info := &attemptInfo{}
	return context.WithValue(ctx, attemptKey{}, info), info
}

// observingTransport records each response's status and Retry-After in the
// request's attemptInfo. The Ollama client turns a 429 into an error without
// its headers; this is how its Retry-After still reaches the retrier.
type observingTransport struct{ base http.RoundTripper }

func (t observingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if info, ok := req.Context().Value(attemptKey{}).(*attemptInfo); ok {
		info.status = resp.StatusCode
		info.retryAfter = retryAfter(resp.Header, time.Now())
	}
	return resp, nil
}

// retryAfter reads retry-after-ms (OpenAI's) or Retry-After (seconds or an
// HTTP date), capped at maxRetryAfter; 0 when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
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
	return max(0, min(d, maxRetryAfter))
}

// maxIdleConns is how many connections to a model server stay open between
// calls: above any sensible --llm-concurrency plus --embed-concurrency
// (net/http keeps 2, and more concurrent calls would dial anew each time).
const maxIdleConns = 32

// newHTTPClient is the client every model call goes through: a timeout per
// request (the Ollama client has none of its own) and the observing transport.
func newHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = maxIdleConns
	return &http.Client{Timeout: timeout, Transport: observingTransport{base: t}}
}
