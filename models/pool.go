package models

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/schema"
)

// Endpoint health, each with its reason.
const (
	// An endpoint that failed a call rests this long before it is tried
	// again, doubling with each failure in a row: a restarting server is
	// back within a minute, a dead one costs one probe call per period.
	endpointRest    = 15 * time.Second
	endpointMaxRest = 5 * time.Minute
)

// pool spreads one kind of server's calls over several endpoints (several
// GPU servers with the same models): each call goes to the healthy endpoint
// with the fewest calls in flight, so a slow server gets fewer. An endpoint
// whose call fails in a way another server would not (unreachable, 5xx,
// timeout, a model it lacks) is taken out for a rest that doubles while it
// keeps failing; after it, one call at a time probes it until one succeeds.
// The retrier around each call then tries again, on another endpoint. While
// any endpoint is left the run goes on; when all rest, calls go to the one
// whose rest ends first, so the retrier's errors are real ones.
//
// Every endpoint must serve the same weights: a model's digest is checked
// on each before it gets calls (at start, or when an endpoint that was down
// at start comes back), and an endpoint with another digest is left out of
// the run, since its headers and vectors would not match the reuse keys.
type pool struct {
	kind string // "ollama" | "openai"
	log  *slog.Logger
	now  func() time.Time

	mu      sync.Mutex
	eps     []*endpoint
	digests map[string]string // model → digest every endpoint must have
	next    int               // where the search for a least-loaded endpoint starts, for fairness
}

type endpoint struct {
	srv       modelServer
	inflight  int
	fails     int       // failures in a row
	downUntil time.Time // resting until then
	checked   map[string]bool
	out       string // why it is out of the run for good ("" while in)
	calls     int
}

var _ modelServer = (*pool)(nil)

func newPool(kind string, srvs []modelServer, log *slog.Logger) *pool {
	p := &pool{kind: kind, log: log, now: time.Now, digests: map[string]string{}}
	for _, s := range srvs {
		p.eps = append(p.eps, &endpoint{srv: s, checked: map[string]bool{}})
	}
	return p
}

// splitHosts reads a list of server addresses: comma-separated, spaces
// allowed, empty items dropped.
func splitHosts(s string) []string {
	var out []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			out = append(out, h)
		}
	}
	return out
}

func (p *pool) where() string {
	names := make([]string, len(p.eps))
	for i, e := range p.eps {
		names[i] = strings.TrimPrefix(e.srv.where(), p.kind+" at ")
	}
	return fmt.Sprintf("%s at %s", p.kind, strings.Join(names, ", "))
}

func (p *pool) hint() string { return p.eps[0].srv.hint() }

func (p *pool) lengthLimits() bool { return p.eps[0].srv.lengthLimits() }

// ping succeeds when any endpoint answers; the others rest, to be tried
// later.
func (p *pool) ping(ctx context.Context) error {
	errs := make([]error, len(p.eps))
	var wg sync.WaitGroup
	for i, e := range p.eps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.srv.ping(ctx)
		}()
	}
	wg.Wait()
	up := 0
	for i, e := range p.eps {
		if errs[i] == nil {
			up++
			continue
		}
		p.rest(e, errs[i])
	}
	if up == 0 {
		return errors.Join(errs...)
	}
	return nil
}

// lookup looks the model up on every endpoint that answers and checks they
// serve the same weights. An endpoint without the model, or with other
// weights, is left out of the run with a warning; the run needs one left.
func (p *pool) lookup(ctx context.Context, model string) (modelInfo, error) {
	var info modelInfo
	var errs []error
	found := false
	for _, e := range p.eps {
		if !p.usable(e) {
			continue
		}
		in, err := e.srv.lookup(ctx, model)
		if err != nil {
			errs = append(errs, err)
			if errors.Is(err, context.Canceled) {
				return info, err
			}
			p.rest(e, err) // looked up again before its first call
			continue
		}
		if !found {
			info, found = in, true
			p.mu.Lock()
			p.digests[model] = in.digest
			p.mu.Unlock()
		} else if in.digest != info.digest {
			p.leaveOut(e, fmt.Sprintf("model %s has digest %s there, %s on the others", model, in.digest, info.digest))
			continue
		}
		e.checked[model] = true
	}
	if !found {
		return info, errors.Join(errs...)
	}
	return info, nil
}

// usable reports whether e is in the run and not resting.
func (p *pool) usable(e *endpoint) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return e.out == "" && !p.now().Before(e.downUntil)
}

func (p *pool) chat(ctx context.Context, req chatRequest) (string, error) {
	e, err := p.pick(ctx, req.Model)
	if err != nil {
		return "", err
	}
	out, err := e.srv.chat(ctx, req)
	p.release(e, err)
	return out, p.named(e, err)
}

func (p *pool) embed(ctx context.Context, req embedRequest) (embedResult, error) {
	e, err := p.pick(ctx, req.Model)
	if err != nil {
		return embedResult{}, err
	}
	out, err := e.srv.embed(ctx, req)
	p.release(e, err)
	return out, p.named(e, err)
}

// named adds the endpoint to an error, so a message says which server.
func (p *pool) named(e *endpoint, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", e.srv.where(), err)
}

// pick chooses the endpoint for one call and counts the call in flight. An
// endpoint that has not served model yet (it was down at start) is checked
// first.
func (p *pool) pick(ctx context.Context, model string) (*endpoint, error) {
	var last error
	for range len(p.eps) {
		e := p.choose()
		if e == nil {
			break
		}
		if p.isChecked(e, model) {
			return e, nil
		}
		in, err := e.srv.lookup(ctx, model)
		p.mu.Lock()
		want, known := p.digests[model]
		p.mu.Unlock()
		switch {
		case err != nil:
			p.release(e, err)
			if ctx.Err() != nil {
				return nil, err
			}
			last = p.named(e, err)
			continue
		case known && in.digest != want:
			p.release(e, nil)
			p.leaveOut(e, fmt.Sprintf("model %s has digest %s there, %s on the others", model, in.digest, want))
			continue
		}
		p.mu.Lock()
		e.checked[model] = true
		if !known {
			p.digests[model] = in.digest
		}
		p.mu.Unlock()
		return e, nil
	}
	if last != nil {
		return nil, last
	}
	return nil, fmt.Errorf("%s: every endpoint is out of the run", p.where())
}

func (p *pool) isChecked(e *endpoint, model string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return e.checked[model]
}

// choose takes the least-loaded endpoint that is in the run and not
// resting (one on probation takes one call at a time), or the one whose rest
// ends first when all rest; nil when none is left in the run.
func (p *pool) choose() *endpoint {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var best, soonest *endpoint
	n := len(p.eps)
	for i := range n {
		e := p.eps[(p.next+i)%n]
		if e.out != "" {
			continue
		}
		if now.Before(e.downUntil) || e.fails > 0 && e.inflight > 0 {
			if soonest == nil || e.downUntil.Before(soonest.downUntil) {
				soonest = e
			}
			continue
		}
		if best == nil || e.inflight < best.inflight {
			best = e
		}
	}
	p.next = (p.next + 1) % n
	if best == nil {
		best = soonest
	}
	if best != nil {
		best.inflight++
		best.calls++
	}
	return best
}

// release ends a call: a failure that is the endpoint's sends it to rest, a
// success ends its rest. The count and the rest change together, so no other
// call picks the endpoint between its failure and its rest.
func (p *pool) release(e *endpoint, err error) {
	p.mu.Lock()
	e.inflight--
	back := err == nil && e.fails > 0
	var rest time.Duration
	switch {
	case err == nil:
		e.fails, e.downUntil = 0, time.Time{}
	case endpointFault(err):
		rest = p.restLocked(e)
	}
	p.mu.Unlock()
	switch {
	case back:
		p.log.Info("model endpoint back in the run", "endpoint", e.srv.where())
	case rest > 0:
		p.log.Warn("model endpoint taken out; the others take its calls", "endpoint", e.srv.where(), "for", rest, "error", redactErr(err))
	}
}

// rest takes e out for a while.
func (p *pool) rest(e *endpoint, err error) {
	p.mu.Lock()
	d := p.restLocked(e)
	p.mu.Unlock()
	p.log.Warn("model endpoint taken out; the others take its calls", "endpoint", e.srv.where(), "for", d, "error", redactErr(err))
}

// restLocked counts a failure and sets e's rest; p.mu is held.
func (p *pool) restLocked(e *endpoint) time.Duration {
	e.fails++
	d := min(endpointRest<<min(e.fails-1, 8), endpointMaxRest)
	e.downUntil = p.now().Add(d)
	return d
}

// leaveOut takes e out of the run for good.
func (p *pool) leaveOut(e *endpoint, why string) {
	p.mu.Lock()
	e.out = why
	p.mu.Unlock()
	p.log.Warn("model endpoint left out of the run", "endpoint", e.srv.where(), "reason", why)
}

// endpointFault reports whether a call's error is the endpoint's (another
// server could answer) rather than the request's or the caller's.
func endpointFault(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) && se.Code >= 400 && se.Code < 500 {
		// A request the server refuses stays refused elsewhere; but a
		// model it lacks (404), a timeout (408) or an overload (429) is
		// this server's state.
		return se.Code == http.StatusNotFound || se.Code == http.StatusRequestTimeout || se.Code == http.StatusTooManyRequests
	}
	return true
}

// stats lists the endpoints' calls.
func (p *pool) stats() []schema.EndpointStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]schema.EndpointStats, len(p.eps))
	for i, e := range p.eps {
		out[i] = schema.EndpointStats{Endpoint: e.srv.where(), Calls: e.calls, LeftOut: e.out}
	}
	return out
}

// endpointStats is the pool's account, when s is a pool.
func endpointStats(s any) []schema.EndpointStats {
	if p, ok := s.(*pool); ok {
		return p.stats()
	}
	return nil
}
