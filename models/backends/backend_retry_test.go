package backends

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		h    http.Header
		want time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{"milliseconds first", http.Header{"Retry-After": {"1"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{"HTTP date", http.Header{"Retry-After": {now.Add(5 * time.Second).Format(http.TimeFormat)}}, 5 * time.Second},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0},
		{"junk", http.Header{"Retry-After": {"soon"}}, 0},
		{"capped", http.Header{"Retry-After": {"86400"}}, server.MaxRetryAfter},
	}
	for _, tc := range tests {
		if got := server.RetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestRetrier checks which failures are retried and that tries are bounded.
func TestRetrier(t *testing.T) {
	status := func(code int) func(context.Context) error {
		return func(ctx context.Context) error {
			info := ctx.Value(server.AttemptKey{}).(*server.AttemptInfo)
			info.Status = code
			return &server.StatusError{Code: code, Msg: http.StatusText(code)}
		}
	}
	tests := []struct {
		name      string
		op        func(context.Context) error
		wantTries int
		wantErr   string
	}{
		{"503 is retried, bounded", status(503), 3, "503"},
		{"429 is retried", status(429), 3, "429"},
		{"400 is final", status(400), 1, "400"},
		{"404 is final", status(404), 1, "404"},
		{"a dropped connection is retried", func(context.Context) error { return errors.New("connection reset") }, 3, "connection reset"},
		{"a malformed 200 is retried", func(ctx context.Context) error {
			ctx.Value(server.AttemptKey{}).(*server.AttemptInfo).Status = 200
			return errors.New("unexpected end of JSON input")
		}, 3, "malformed answer"},
		{"a timeout is retried", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }, 3, "no answer within 20ms"},
		{"a final answer is not retried", func(context.Context) error { return server.Final(errors.New("wrong width")) }, 1, "wrong width"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &server.Retrier{Policy: fastRetry, Timeout: 20 * time.Millisecond}
			tries := 0
			err := r.Do(context.Background(), func(ctx context.Context) error { tries++; return tc.op(ctx) })
			if tries != tc.wantTries || err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %d tries, error %v; want %d tries and an error containing %q", tries, err, tc.wantTries, tc.wantErr)
			}
			if got := r.Retries.Load(); got != int64(tc.wantTries-1) {
				t.Errorf("got %d retries counted, want %d", got, tc.wantTries-1)
			}
		})
	}
}

// TestRetrierCancelDuringBackoff checks that a cancelled run does not sleep
// out its back-off or a long Retry-After.
func TestRetrierCancelDuringBackoff(t *testing.T) {
	r := &server.Retrier{Policy: models.RetryPolicy{Tries: 5, Initial: time.Minute, Max: time.Minute}, Timeout: time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	start, tries := time.Now(), 0
	err := r.Do(ctx, func(ctx context.Context) error {
		tries++
		info := ctx.Value(server.AttemptKey{}).(*server.AttemptInfo)
		info.Status, info.RetryAfter = 429, time.Minute
		return fmt.Errorf("busy")
	})
	if !errors.Is(err, context.Canceled) || tries != 1 {
		t.Errorf("got %v after %d tries, want context.Canceled after 1", err, tries)
	}
	if d := time.Since(start); d > slowBound {
		t.Errorf("returned after %s, want promptly (the backoff it must not wait out is a minute)", d)
	}
}

func TestInvalidInput(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&server.StatusError{Code: 400, Msg: "bad"}, true},
		{&server.StatusError{Code: 413}, true},
		{&server.StatusError{Code: 422}, true},
		{&server.StatusError{Code: 500, Msg: "the input length exceeds the context length"}, true},
		{&server.StatusError{Code: 500, Msg: "out of memory"}, false},
		{&server.StatusError{Code: 404, Msg: "model not found"}, false},
		{errors.New("connection refused"), false},
	}
	for _, tc := range tests {
		if got := server.InvalidInput(fmt.Errorf("wrapped: %w", tc.err)); got != tc.want {
			t.Errorf("invalidInput(%v): got %v, want %v", tc.err, got, tc.want)
		}
	}
}
