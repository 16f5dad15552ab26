package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models/server"
)

// stubServer is one endpoint of a pool under test.
type stubServer struct {
	name    string
	digest  atomic.Value // string
	latency time.Duration
	down    atomic.Bool // every call fails as an unreachable server's would
	calls   atomic.Int64
	lookups atomic.Int64
}

func newStub(name, digest string, latency time.Duration) *stubServer {
	s := &stubServer{name: name, latency: latency}
	s.digest.Store(digest)
	return s
}

var errUnreachable = errors.New("dial tcp: connection refused")

func (s *stubServer) Where() string { return "ollama at " + s.name }

func (s *stubServer) Ping(context.Context) error {
	if s.down.Load() {
		return errUnreachable
	}
	return nil
}

func (s *stubServer) Lookup(_ context.Context, model string) (server.ModelInfo, error) {
	s.lookups.Add(1)
	if s.down.Load() {
		return server.ModelInfo{}, errUnreachable
	}
	return server.ModelInfo{Digest: s.digest.Load().(string), Dims: 4}, nil
}

func (s *stubServer) Chat(ctx context.Context, req server.ChatRequest) (server.ChatAnswer, error) {
	if s.down.Load() {
		return server.ChatAnswer{}, errUnreachable
	}
	s.calls.Add(1)
	time.Sleep(s.latency)
	return server.ChatAnswer{Content: s.name}, nil
}

func (s *stubServer) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	if s.down.Load() {
		return server.EmbedResult{}, errUnreachable
	}
	s.calls.Add(1)
	time.Sleep(s.latency)
	return server.EmbedResult{Vectors: [][]float32{{1, 0, 0, 0}}}, nil
}

// clock is a pool's time, moved by the test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func testPool(t *testing.T, srvs ...*stubServer) (*Pool, *clock) {
	t.Helper()
	var ms []server.Server
	for _, s := range srvs {
		ms = append(ms, s)
	}
	p := newPool("ollama", ms, slog.New(slog.DiscardHandler), nil)
	c := &clock{t: time.Unix(1e9, 0)}
	p.now = c.now
	if err := p.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lookup(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	return p, c
}

func chatN(p *Pool, n, conc int) (fails int) {
	var wg sync.WaitGroup
	var failed atomic.Int64
	work := make(chan struct{}, n)
	for range n {
		work <- struct{}{}
	}
	close(work)
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				if _, err := p.chat(context.Background(), server.ChatRequest{Model: "m"}); err != nil {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(failed.Load())
}

// TestPoolLeastOutstanding: a server that answers faster gets more of the
// calls; equal servers get about the same share.
func TestPoolLeastOutstanding(t *testing.T) {
	tests := []struct {
		name         string
		fast, slow   time.Duration
		minRatio     float64 // fast's calls over slow's, at least
		maxImbalance float64 // for equal servers: |a-b|/(a+b) at most
	}{
		{"equal servers", 2 * time.Millisecond, 2 * time.Millisecond, 0, 0.2},
		{"one five times slower", 2 * time.Millisecond, 10 * time.Millisecond, 2.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := newStub("a", "sha256:1", tt.fast), newStub("b", "sha256:1", tt.slow)
			p, _ := testPool(t, a, b)
			if fails := chatN(p, 400, 8); fails != 0 {
				t.Fatalf("%d calls failed", fails)
			}
			ca, cb := float64(a.calls.Load()), float64(b.calls.Load())
			if tt.minRatio > 0 && ca/cb < tt.minRatio {
				t.Errorf("got %v calls to the fast server and %v to the slow one, want at least %.1f×", ca, cb, tt.minRatio)
			}
			if d := (ca - cb) / (ca + cb); d > tt.maxImbalance || -d > tt.maxImbalance {
				t.Errorf("got %v and %v calls: more imbalance than %.2f", ca, cb, tt.maxImbalance)
			}
		})
	}
}

// TestPoolFailover: an endpoint that fails is taken out, the others take
// its calls, and after its rest one probe brings it back.
func TestPoolFailover(t *testing.T) {
	a, b := newStub("a", "sha256:1", time.Millisecond), newStub("b", "sha256:1", time.Millisecond)
	p, c := testPool(t, a, b)
	a.down.Store(true)
	_, err := p.chat(context.Background(), server.ChatRequest{Model: "m"})
	_, err2 := p.chat(context.Background(), server.ChatRequest{Model: "m"})
	if err == nil && err2 == nil {
		t.Fatal("no call went to the dead endpoint")
	}
	if e := errors.Join(err, err2); !strings.Contains(e.Error(), "ollama at a: dial tcp") {
		t.Errorf("got %v, want the error to name the endpoint", e)
	}
	before := b.calls.Load()
	if fails := chatN(p, 50, 4); fails != 0 {
		t.Errorf("got %d failed calls while b was up, want 0: a should rest", fails)
	}
	if got := b.calls.Load() - before; got != 50 {
		t.Errorf("got %d of 50 calls on b while a rests", got)
	}
	// Still down after its rest: one probe, then a longer rest.
	c.add(endpointRest + time.Second)
	fails := chatN(p, 20, 4)
	if fails != 1 {
		t.Errorf("got %d failed calls after a's rest, want 1 (the probe)", fails)
	}
	// Back up: after the doubled rest it is probed and takes calls again.
	a.down.Store(false)
	c.add(2*endpointRest + time.Second)
	if fails := chatN(p, 100, 4); fails != 0 {
		t.Errorf("got %d failed calls with both up", fails)
	}
	if a.calls.Load() < 20 {
		t.Errorf("got %d calls on a after it came back, want its share", a.calls.Load())
	}
}

// TestPoolStartup: an endpoint down at start does not stop the run; when it
// comes back it is checked before its first call, and one that serves other
// weights is left out. A pool with none up fails at start.
func TestPoolStartup(t *testing.T) {
	a, b, c, d := newStub("a", "sha256:1", 0), newStub("b", "sha256:1", 0), newStub("c", "sha256:2", 0), newStub("d", "sha256:1", 0)
	b.down.Store(true)
	p, clk := testPool(t, a, b, c, d) // c has other weights than a and d: left out at lookup
	if fails := chatN(p, 20, 2); fails != 0 {
		t.Fatalf("%d calls failed", fails)
	}
	if b.calls.Load() != 0 || c.calls.Load() != 0 {
		t.Errorf("got calls on b (%d, down) or c (%d, other weights)", b.calls.Load(), c.calls.Load())
	}
	b.down.Store(false)
	b.digest.Store("sha256:2") // came back with other weights
	clk.add(endpointRest + time.Second)
	if fails := chatN(p, 20, 2); fails != 0 {
		t.Fatalf("%d calls failed", fails)
	}
	if b.calls.Load() != 0 || b.lookups.Load() == 0 {
		t.Errorf("b came back with other weights: got %d calls and %d look-ups, want 0 calls after a look-up", b.calls.Load(), b.lookups.Load())
	}
	st := p.Stats()
	if st[1].LeftOut == "" || st[2].LeftOut == "" || st[0].LeftOut != "" || st[3].LeftOut != "" {
		t.Errorf("got %+v, want b and c left out", st)
	}

	d1, d2 := newStub("d1", "x", 0), newStub("d2", "x", 0)
	d1.down.Store(true)
	d2.down.Store(true)
	dead := New("ollama", []server.Server{d1, d2}, slog.New(slog.DiscardHandler), nil)
	if err := dead.Ping(context.Background()); err == nil {
		t.Error("a pool with every endpoint down passed its start-up check")
	}
}

// TestPoolReference: the digest a pool keeps is the previous snapshot's,
// else the majority's, whatever the listing order; with neither, the run
// is refused naming each server's digest. (--ollama-host other,good kept
// the odd server, switched the embedder and re-paid every call, exit 0.)
func TestPoolReference(t *testing.T) {
	tests := []struct {
		name    string
		digests []string // of servers s0, s1, …
		prev    string   // the previous snapshot's digest ("": none)
		want    string   // the digest kept; "" a refusal
		wantErr string
	}{
		{"previous snapshot's, listed second", []string{"sha256:new", "sha256:old"}, "sha256:old", "sha256:old", ""},
		{"previous snapshot's, a minority", []string{"sha256:new", "sha256:new", "sha256:old"}, "sha256:old", "sha256:old", ""},
		{"majority, listed last", []string{"sha256:odd", "sha256:good", "sha256:good"}, "", "sha256:good", ""},
		{"previous snapshot's served nowhere: majority", []string{"sha256:b", "sha256:a", "sha256:a"}, "sha256:gone", "sha256:a", ""},
		{"no majority, no previous", []string{"sha256:odd", "sha256:good"}, "", "", "s0 has sha256:odd, s1 has sha256:good"},
		{"all agree", []string{"sha256:1", "sha256:1"}, "", "sha256:1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var srvs []server.Server
			for i, d := range tt.digests {
				srvs = append(srvs, newStub(fmt.Sprintf("s%d", i), d, 0))
			}
			var prev map[string]string
			if tt.prev != "" {
				prev = map[string]string{"m": tt.prev}
			}
			p := newPool("ollama", srvs, slog.New(slog.DiscardHandler), prev)
			info, err := p.Lookup(context.Background(), "m")
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("got %v, want one line naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || info.Digest != tt.want {
				t.Fatalf("got digest %q (%v), want %s", info.Digest, err, tt.want)
			}
			chatN(p, 20, 2)
			for i, st := range p.Stats() { // calls sent (a hedged trial may still be running)
				if (tt.digests[i] == tt.want) != (st.Calls > 0) {
					t.Errorf("s%d (%s): got %d calls", i, tt.digests[i], st.Calls)
				}
			}
		})
	}
}

// TestPoolLatency: a server fifty times slower than the other gets calls
// in proportion to its speed (at this load, almost none), and its trial
// call is answered by the fast one too, so no call waits out its latency
// (a trial is hedged after minHedgeWait at least: the slow one's latency
// is above it).
func TestPoolLatency(t *testing.T) {
	fast, slow := newStub("fast", "sha256:1", 5*time.Millisecond), newStub("slow", "sha256:1", 250*time.Millisecond)
	p, _ := testPool(t, slow, fast)
	if fails := chatN(p, 400, 4); fails != 0 {
		t.Fatalf("%d calls failed", fails)
	}
	if got := slow.calls.Load(); got > 8 {
		t.Errorf("got %d of 400 calls on the slow server, want a trial or two", got)
	}
	st := p.Stats()
	if st[1].Hedges == 0 {
		t.Errorf("got %+v, want the slow trial hedged on the fast server", st)
	}
}

// embedOnly is an endpoint that embeds and has no Chat (a TEI-like
// server).
type embedOnly struct{ s *stubServer }

func (e embedOnly) Where() string { return e.s.Where() }

func (e embedOnly) Ping(ctx context.Context) error { return e.s.Ping(ctx) }

func (e embedOnly) Lookup(ctx context.Context, model string) (server.ModelInfo, error) {
	return e.s.Lookup(ctx, model)
}

func (e embedOnly) Embed(ctx context.Context, req server.EmbedRequest) (server.EmbedResult, error) {
	return e.s.Embed(ctx, req)
}

// TestPoolServes: a pool serves what its endpoints serve: servers that
// chat and embed make a pool that does both; embedding-only servers make
// a pool that embeds, spreading the calls, and has no Chat.
func TestPoolServes(t *testing.T) {
	both := New("ollama", []server.Server{newStub("a", "sha256:1", 0), newStub("b", "sha256:1", 0)}, slog.New(slog.DiscardHandler), nil)
	if _, ok := both.(server.Chatter); !ok {
		t.Errorf("got a pool of chat servers that is no server.Chatter (%T)", both)
	}
	if _, ok := both.(server.Embedder); !ok {
		t.Errorf("got a pool of embedding servers that is no server.Embedder (%T)", both)
	}

	a, b := newStub("a", "sha256:1", time.Millisecond), newStub("b", "sha256:1", time.Millisecond)
	p := New("tei", []server.Server{embedOnly{a}, embedOnly{b}}, slog.New(slog.DiscardHandler), nil)
	if _, ok := p.(server.Chatter); ok {
		t.Fatalf("got a pool of embedding-only servers that chats (%T), want none", p)
	}
	e, ok := p.(server.Embedder)
	if !ok {
		t.Fatalf("got a pool of embedding servers that is no server.Embedder (%T)", p)
	}
	if err := p.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lookup(context.Background(), "m"); err != nil {
		t.Fatal(err)
	}
	for range 40 {
		if _, err := e.Embed(context.Background(), server.EmbedRequest{Model: "m", Texts: []string{"a text"}}); err != nil {
			t.Fatal(err)
		}
	}
	if a.calls.Load() == 0 || b.calls.Load() == 0 {
		t.Errorf("got %d and %d embedding calls, want both servers used", a.calls.Load(), b.calls.Load())
	}
}
