package backends

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
)

// openTEI starts fakes and opens --embedder tei:bge-m3 on them, the
// header writer left offline (--llm none).
func openTEI(t *testing.T, opt modelfake.Options, n int) ([]*modelfake.Server, *remote.ModelEmbedder) {
	t.Helper()
	opt.Dims = max(opt.Dims, testDims)
	var srvs []*modelfake.Server
	var addrs []string
	for range n {
		s := modelfake.New(opt)
		t.Cleanup(s.Close)
		srvs, addrs = append(srvs, s), append(addrs, s.URL)
	}
	h, e, err := Open(context.Background(), models.BackendConfig{Embedder: "tei:bge-m3", Addrs: map[string]string{"tei": strings.Join(addrs, ",")},
		Retry: fastRetry, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("backends.Open: %v", err)
	}
	if _, ok := h.(*extractive.Extractive); !ok {
		t.Fatalf("got header writer %T, want the extractive one", h)
	}
	return srvs, e.(*remote.ModelEmbedder)
}

// TestTEI: --embedder tei:MODEL opens the TEI client with the offline
// header writer: the model's Hub revision in its name, its width from one
// probe, vectors in batches; a broken answer is retried, a refused or
// over-long input named by halving, an input TEI cut recorded, a hung call
// ended by cancellation without a retry; several addresses share the
// calls.
func TestTEI(t *testing.T) {
	t.Run("open", func(t *testing.T) {
		srvs, e := openTEI(t, modelfake.Options{}, 1)
		if want := "tei:bge-m3@rev:" + modelfake.Digest("bge-m3")[:12]; e.Name() != want || e.Dims() != testDims {
			t.Errorf("got %s of %d dims, want %s of %d", e.Name(), e.Dims(), want, testDims)
		}
		if got := srvs[0].Calls(modelfake.TEIEmbed); got != 1 {
			t.Errorf("got %d embed calls at start, want 1 (the width probed)", got)
		}
		vs, err := e.Embed(context.Background(), backendTexts(25))
		if err != nil || len(vs) != 25 {
			t.Fatalf("got %d vectors (%v), want 25", len(vs), err)
		}
		for _, body := range srvs[0].Requests(modelfake.TEIEmbed)[1:] {
			if n := strings.Count(string(body), `"Escape`); n > models.DefaultBatchSize {
				t.Errorf("got a batch of %d inputs, want at most %d", n, models.DefaultBatchSize)
			}
		}
	})
	t.Run("malformed answer retried", func(t *testing.T) {
		srvs, e := openTEI(t, modelfake.Options{}, 1)
		srvs[0].SetFault(modelfake.Fault{Kind: modelfake.MalformedJSON, Times: 1})
		if _, err := e.Embed(context.Background(), backendTexts(3)); err != nil {
			t.Fatal(err)
		}
		if s := e.Stats(); s.Retries != 1 {
			t.Errorf("got %d retries, want 1", s.Retries)
		}
	})
	t.Run("refused input found by halving", func(t *testing.T) {
		srvs, e := openTEI(t, modelfake.Options{}, 1)
		srvs[0].SetFault(modelfake.Fault{Kind: modelfake.BadInput, Match: "POISON"})
		texts := backendTexts(10)
		texts[6] = "POISON " + texts[6]
		var ie *remote.InputError
		if _, err := e.Embed(context.Background(), texts); !errors.As(err, &ie) || ie.Index != 6 {
			t.Fatalf("got %v, want input 6 named", err)
		}
	})
	t.Run("over-long input named", func(t *testing.T) {
		_, e := openTEI(t, modelfake.Options{ContextLength: 64}, 1)
		texts := backendTexts(5)
		texts[3] = longInput
		var ie *remote.InputError
		if _, err := e.Embed(context.Background(), texts); !errors.As(err, &ie) || ie.Index != 3 || !strings.Contains(err.Error(), "413") {
			t.Fatalf("got %v, want input 3 named by TEI's 413", err)
		}
	})
	t.Run("cut input recorded", func(t *testing.T) {
		_, e := openTEI(t, modelfake.Options{ContextLength: 64, TruncateSilently: true}, 1)
		if _, err := e.Embed(context.Background(), []string{"short one", longInput}); err != nil {
			t.Fatal(err)
		}
		if got := e.Truncations(); len(got) != 1 || got[0].BatchTokens == 0 {
			t.Errorf("got truncations %+v, want the long input with TEI's token count", got)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		srvs, e := openTEI(t, modelfake.Options{}, 1)
		srvs[0].SetFault(modelfake.Fault{Kind: modelfake.Hang})
		ctx, cancel := context.WithCancel(context.Background())
		go func() { // cancel once the call hangs on the server, however busy the machine
			for deadline := time.Now().Add(10 * time.Second); srvs[0].Calls(modelfake.TEIEmbed) < 2 && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			cancel()
		}()
		if _, err := e.Embed(ctx, backendTexts(3)); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
		if got := srvs[0].Calls(modelfake.TEIEmbed); got != 2 {
			t.Errorf("got %d calls, want the probe and one (no retry after cancellation)", got)
		}
	})
	t.Run("several servers", func(t *testing.T) {
		srvs, e := openTEI(t, modelfake.Options{Latency: time.Millisecond}, 2)
		for range 20 {
			if _, err := e.Embed(context.Background(), backendTexts(2)); err != nil {
				t.Fatal(err)
			}
		}
		if srvs[0].Calls(modelfake.TEIEmbed) == 0 || srvs[1].Calls(modelfake.TEIEmbed) == 0 {
			t.Errorf("got %d and %d calls, want both servers used", srvs[0].Calls(modelfake.TEIEmbed), srvs[1].Calls(modelfake.TEIEmbed))
		}
		if st := e.Stats().Endpoints; len(st) != 2 {
			t.Errorf("got endpoint stats %+v, want both servers'", st)
		}
	})
}
