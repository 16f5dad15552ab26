package push

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// counts are the HTTP work of one batch.
type counts struct {
	Requests int   `json:"requests"` // POSTs, retries included
	Retries  int   `json:"retries"`  // of POSTs and polls
	Polls    int   `json:"polls"`
	Bytes    int64 `json:"bytes"` // request bodies as sent (gzip), retries included
}

func (c *counts) add(o counts) {
	c.Requests += o.Requests
	c.Retries += o.Retries
	c.Polls += o.Polls
	c.Bytes += o.Bytes
}

// errTaskFailed marks a batch whose task the destination reports failed.
var errTaskFailed = errors.New("the destination's task failed")

// errTaskLost marks a batch whose task the destination no longer knows
// (404, 410: a receiver restarted, its task store gone): its request is
// sent again, which its idempotency key makes safe.
var errTaskLost = errors.New("the destination no longer knows the task")

// post sends a batch until the destination acknowledges it: done (a 2xx
// other than 202: nil task), or accepted with a task to poll.
func (c *client) post(ctx context.Context, b *batch, n *counts) (*url.URL, error) {
	a, err := c.retry(ctx, b.what(), func() { n.Retries++ }, func() (*answer, error) {
		n.Requests++
		n.Bytes += int64(len(b.body.gz))
		return c.do(ctx, http.MethodPost, c.target, &b.body, b.span)
	})
	if err != nil {
		return nil, err
	}
	if a.method != http.MethodPost { // checkRedirect lets no POST become another method; this holds it
		return nil, &httpError{a.status, fmt.Sprintf("%s: answered by a %s of %s: no acknowledgement", b.what(), a.method, redactURL(a.url.String()))}
	}
	switch a.status {
	case http.StatusAccepted:
		return c.taskOf(b, a)
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
		return nil, c.checkAck(b, a)
	default: // another 2xx or 4xx, or a redirect not followed
		return nil, &httpError{a.status, fmt.Sprintf("%s: %s", b.what(), c.describe(a))}
	}
}

// checkAck holds an acknowledgement to the contract's shape: no body, or a
// JSON object whose status, when it has one, is "succeeded". A proxy's
// login page or a status page answering 200 is not the receiver saying it
// applied the request.
func (c *client) checkAck(b *batch, a *answer) error {
	if len(bytes.TrimSpace(a.body)) == 0 {
		return nil
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(a.body, &v); err != nil || v == nil {
		return &httpError{a.status, fmt.Sprintf("%s: %s answered %d with no JSON object: not an acknowledgement (%s)",
			b.what(), redactURL(a.url.String()), a.status, c.describe(a))}
	}
	raw, ok := v["status"]
	if !ok {
		return nil
	}
	var status string
	if json.Unmarshal(raw, &status) != nil || status != "succeeded" {
		return &httpError{a.status, fmt.Sprintf("%s: %s answered %d with status %s: not an acknowledgement (want succeeded, or 202 with a task)",
			b.what(), redactURL(a.url.String()), a.status, serverMessage(raw))}
	}
	return nil
}

// taskOf finds a 202's task: its Location header, else the task_url of
// its body, relative to where it was answered. A task on another host is
// refused: polling it would carry the token there.
func (c *client) taskOf(b *batch, a *answer) (*url.URL, error) {
	loc := a.header.Get("Location")
	if loc == "" {
		var v struct {
			TaskURL string `json:"task_url"`
		}
		json.Unmarshal(a.body, &v)
		loc = v.TaskURL
	}
	if loc == "" {
		return nil, &httpError{a.status, fmt.Sprintf("%s: 202 Accepted names no task (no Location header, no task_url)", b.what())}
	}
	u, err := a.url.Parse(loc)
	if err != nil {
		return nil, &httpError{a.status, fmt.Sprintf("%s: 202 Accepted with a task that is not a URL", b.what())}
	}
	if !c.sameOrigin(u) {
		return nil, &httpError{a.status, fmt.Sprintf("%s: its task %s is on another host than %s: not polled (the token goes to the destination only)",
			b.what(), redactURL(u.String()), c.name)}
	}
	return u, nil
}

// poll waits for a batch's task: polls with a growing wait (from
// PollInterval to 16 times it, or the server's Retry-After when longer)
// until the task is done or failed, or TaskTimeout has passed.
func (c *client) poll(ctx context.Context, b *batch, task *url.URL, n *counts) error {
	deadline := time.Now().Add(c.set.TaskTimeout)
	wait := c.set.PollInterval
	for {
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
		a, err := c.retry(ctx, b.what()+": task", func() { n.Retries++ }, func() (*answer, error) {
			n.Polls++
			return c.do(ctx, http.MethodGet, task, nil, b.span)
		})
		if err != nil {
			return err
		}
		if a.status == http.StatusNotFound || a.status == http.StatusGone {
			return fmt.Errorf("%s: task %s: %w (%s)", b.what(), redactURL(task.String()), errTaskLost, c.describe(a))
		}
		if a.status != http.StatusOK {
			return &httpError{a.status, fmt.Sprintf("%s: task %s: %s", b.what(), redactURL(task.String()), c.describe(a))}
		}
		var t struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(a.body, &t); err != nil {
			return &httpError{a.status, fmt.Sprintf("%s: task %s answered no JSON status", b.what(), redactURL(task.String()))}
		}
		switch t.Status {
		case "succeeded":
			return nil
		case "failed":
			return fmt.Errorf("%s: %w: %s", b.what(), errTaskFailed, c.secrets.scrub(serverMessage([]byte(t.Message))))
		case "queued", "running":
		default:
			return &httpError{a.status, fmt.Sprintf("%s: task status %q: want queued, running, succeeded or failed", b.what(), serverMessage([]byte(t.Status)))}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: task %s not done after %s", b.what(), redactURL(task.String()), c.set.TaskTimeout)
		}
		wait = min(2*wait, 16*c.set.PollInterval)
		if ra, ok := retryAfter(a.header.Get("Retry-After"), time.Now()); ok && ra > wait {
			wait = min(ra, maxRetryAfter)
		}
	}
}
