package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/server"
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

// Pool spreads one kind of server's calls over several endpoints (several
// GPU servers with the same models): each call goes where it would be
// answered first, by the endpoint's measured latency and its calls in
// flight (pool_choice.go), so a slow server gets calls in proportion to its
// speed. An endpoint whose call fails in a way another server would not
// (unreachable, 5xx, timeout, a model it lacks) is taken out for a rest that
// doubles while it keeps failing; after it, one call at a time probes it
// until one succeeds. The retrier around each call then tries again, on
// another endpoint. While any endpoint is left the run goes on; when all
// rest, calls go to the one whose rest ends first, so the retrier's errors
// are real ones.
//
// Every endpoint must serve the same weights: a model's digest is checked
// on each before it gets calls (at start, or when an endpoint that was down
// at start comes back). The reference digest is the previous snapshot's,
// else the one most endpoints serve (pool_digest.go); an endpoint with
// another is left out of the run, since its headers and vectors would not
// match the reuse keys.
//
// A pool serves what its endpoints serve: New gives it Chat when they all
// chat and Embed when they all embed, so a pool of embedding servers is
// no server.Chatter, as none of them is.
type Pool struct {
	kind string // "ollama" | "openai"
	log  *slog.Logger
	now  func() time.Time

	mu      sync.Mutex
	eps     []*endpoint
	digests map[string]string // model → digest every endpoint must have
	prev    map[string]string // model → digest of the previous snapshot, the reference when an endpoint serves it
	next    int               // where the search for an endpoint starts, for fairness
}

type endpoint struct {
	srv       server.Server
	chat      server.Chatter  // srv, when it chats
	embed     server.Embedder // srv, when it embeds
	inflight  int
	fails     int       // failures in a row
	downUntil time.Time // resting until then
	checked   map[string]bool
	out       string // why it is out of the run for good ("" while in)
	calls     int
	lat       [2]time.Duration // latency of its answers, by callKind (a moving average; 0: none yet)
	sampled   [2]time.Time     // when lat was last measured
	abandoned [2]bool          // its last trial was not waited for: lat is a lower bound
	hedges    int              // calls it took for another endpoint's trial that was too slow
	hedging   int              // of those, in flight
	slots     int              // what it says of its own parallelism (0: nothing)
}

var _ server.Server = (*Pool)(nil)

// New pools srvs, servers of one kind; prev names the previous snapshot's
// digest of each model (nil: none). The pool is a server.Chatter when
// every one of srvs is, a server.Embedder when every one is, and a
// server.Server always.
func New(kind string, srvs []server.Server, log *slog.Logger, prev map[string]string) server.Server {
	return newPool(kind, srvs, log, prev).serving()
}

func newPool(kind string, srvs []server.Server, log *slog.Logger, prev map[string]string) *Pool {
	p := &Pool{kind: kind, log: log, now: time.Now, digests: map[string]string{}, prev: prev}
	for _, s := range srvs {
		e := &endpoint{srv: s, checked: map[string]bool{}}
		e.chat, _ = s.(server.Chatter)
		e.embed, _ = s.(server.Embedder)
		p.eps = append(p.eps, e)
	}
	return p
}

// serving is p with the calls all its endpoints serve.
func (p *Pool) serving() server.Server {
	chats, embeds := true, true
	for _, e := range p.eps {
		chats, embeds = chats && e.chat != nil, embeds && e.embed != nil
	}
	switch {
	case chats && embeds:
		return chatEmbedPool{p}
	case chats:
		return chatPool{p}
	case embeds:
		return embedPool{p}
	}
	return p
}

// The pool as its endpoints serve: each adds their calls to *Pool (its
// Where, Ping, Lookup, Stats and routing).
type (
	chatPool      struct{ *Pool }
	embedPool     struct{ *Pool }
	chatEmbedPool struct{ *Pool }
)

var (
	_ server.Chatter  = chatPool{}
	_ server.Embedder = embedPool{}
	_ server.Chatter  = chatEmbedPool{}
	_ server.Embedder = chatEmbedPool{}
)

func (p chatPool) Chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	return p.chat(ctx, req)
}

func (p embedPool) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	return p.embed(ctx, req)
}

func (p chatEmbedPool) Chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	return p.chat(ctx, req)
}

func (p chatEmbedPool) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	return p.embed(ctx, req)
}

func (p *Pool) Where() string {
	names := make([]string, len(p.eps))
	for i, e := range p.eps {
		names[i] = strings.TrimPrefix(e.srv.Where(), p.kind+" at ")
	}
	return fmt.Sprintf("%s at %s", p.kind, strings.Join(names, ", "))
}

// StrictSchema is its servers' (one kind: the first's), for a header
// writer that asks.
func (p *Pool) StrictSchema() bool {
	s, ok := p.eps[0].srv.(interface{ StrictSchema() bool })
	return ok && s.StrictSchema()
}

// Ping succeeds when any endpoint answers; the others rest, to be tried
// later.
func (p *Pool) Ping(ctx context.Context) error {
	errs := make([]error, len(p.eps))
	var wg sync.WaitGroup
	for i, e := range p.eps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = e.srv.Ping(ctx)
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

// usable reports whether e is in the run and not resting.
func (p *Pool) usable(e *endpoint) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return e.out == "" && !p.now().Before(e.downUntil)
}

// chat is one chat call on the endpoint that would answer first; every
// endpoint chats (New gives it only to a pool of chat servers).
func (p *Pool) chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	return poolCall(p, ctx, req.Model, chatCall, func(ctx context.Context, e *endpoint) (server.ChatAnswer, error) {
		a, err := e.chat.Chat(ctx, req)
		a.From = slices.Index(p.eps, e)
		return a, err
	})
}

// embed is chat's embedding call.
func (p *Pool) embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	return poolCall(p, ctx, req.Model, embedCall, func(ctx context.Context, e *endpoint) (server.EmbedResult, error) { return e.embed.Embed(ctx, req) })
}

// named adds the endpoint to an error, so a message says which server.
func (p *Pool) named(e *endpoint, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", e.srv.Where(), err)
}

// pick chooses the endpoint for one call of kind and counts the call in
// flight; trial says its latency is not known (see poolCall). A chat call
// goes to the endpoint the runner named (OnServer) when it can take it. An
// endpoint that has not served model yet (it was down at start) is
// checked first.
func (p *Pool) pick(ctx context.Context, model string, kind callKind) (e *endpoint, trial bool, err error) {
	var last error
	prefer := -1
	if kind == chatCall {
		prefer = models.ServerOf(ctx) // the runner routes a document's calls (pool_route.go)
	}
	if key := models.DocumentOf(ctx); prefer >= 0 && key != "" {
		if ok, _ := p.Healthy(prefer); !ok {
			prefer = p.Route(key) // where the runner will send the document's next calls
		}
	}
	for range len(p.eps) {
		e, trial := p.choose(kind, prefer)
		prefer = -1 // not checked, or left out: another
		if e == nil {
			break
		}
		if p.isChecked(e, model) {
			return e, trial, nil
		}
		in, err := e.srv.Lookup(ctx, model)
		p.mu.Lock()
		want, known := p.digests[model]
		p.mu.Unlock()
		switch {
		case err != nil:
			p.release(e, err)
			if ctx.Err() != nil {
				return nil, false, err
			}
			last = p.named(e, err)
			continue
		case known && in.Digest != want:
			p.release(e, nil)
			p.leaveOut(e, fmt.Sprintf("model %s has digest %s there, %s on the others", model, in.Digest, want))
			continue
		}
		p.mu.Lock()
		e.checked[model] = true
		e.slots = in.Slots
		if !known {
			p.digests[model] = in.Digest
		}
		p.mu.Unlock()
		return e, trial, nil
	}
	if last != nil {
		return nil, false, last
	}
	return nil, false, fmt.Errorf("%s: every endpoint is out of the run", p.Where())
}

func (p *Pool) isChecked(e *endpoint, model string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return e.checked[model]
}

// release ends a call: a failure that is the endpoint's sends it to rest, a
// success ends its rest. The count and the rest change together, so no other
// call picks the endpoint between its failure and its rest.
func (p *Pool) release(e *endpoint, err error) {
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
		p.log.Info("model endpoint back in the run", "endpoint", e.srv.Where())
	case rest > 0:
		p.log.Warn("model endpoint taken out; the others take its calls", "endpoint", e.srv.Where(), "for", rest, "error", server.RedactErr(err))
	}
}

// rest takes e out for a while.
func (p *Pool) rest(e *endpoint, err error) {
	p.mu.Lock()
	d := p.restLocked(e)
	p.mu.Unlock()
	p.log.Warn("model endpoint taken out; the others take its calls", "endpoint", e.srv.Where(), "for", d, "error", server.RedactErr(err))
}

// restLocked counts a failure and sets e's rest; p.mu is held.
func (p *Pool) restLocked(e *endpoint) time.Duration {
	e.fails++
	d := min(endpointRest<<min(e.fails-1, 8), endpointMaxRest)
	e.downUntil = p.now().Add(d)
	return d
}

// leaveOut takes e out of the run for good.
func (p *Pool) leaveOut(e *endpoint, why string) {
	p.mu.Lock()
	e.out = why
	p.mu.Unlock()
	p.log.Warn("model endpoint left out of the run", "endpoint", e.srv.Where(), "reason", why)
}

// endpointFault reports whether a call's error is the endpoint's (another
// server could answer) rather than the request's or the caller's.
func endpointFault(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var se *server.StatusError
	if errors.As(err, &se) && se.Code >= 400 && se.Code < 500 {
		// A request the server refuses stays refused elsewhere; but a
		// model it lacks (404), a timeout (408) or an overload (429) is
		// this server's state.
		return se.Code == http.StatusNotFound || se.Code == http.StatusRequestTimeout || se.Code == http.StatusTooManyRequests
	}
	return true
}

// Stats lists the endpoints' calls.
func (p *Pool) Stats() []schema.EndpointStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]schema.EndpointStats, len(p.eps))
	for i, e := range p.eps {
		out[i] = schema.EndpointStats{Endpoint: e.srv.Where(), Calls: e.calls, Hedges: e.hedges, LeftOut: e.out}
	}
	return out
}
