package backends

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/remote"
	"github.com/ocean-safety/ingest/schema"
)

// TestEndpointsThroughBackends: --ollama-host with two addresses spreads a
// run's calls over both servers, and one killed mid-run leaves the run
// going on the other.
func TestEndpointsThroughBackends(t *testing.T) {
	a := modelfake.New(modelfake.Options{Dims: 8, Latency: 2 * time.Millisecond})
	b := modelfake.New(modelfake.Options{Dims: 8, Latency: 2 * time.Millisecond})
	defer b.Close()
	h, e, err := Open(context.Background(), models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3",
		Addrs: map[string]string{"ollama": a.URL + ", " + b.URL}, Dims: 8, BatchSize: 2, Retry: models.RetryPolicy{Initial: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	doc := schema.Document{Path: "a.md", Title: "Flags", Lang: schema.LangEN}
	calls := func(from, to int) {
		var wg sync.WaitGroup
		errs := make(chan error, 2*(to-from))
		for i := from; i < to; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ch := schema.Chunk{DocPath: "a.md", Order: i, Text: fmt.Sprintf("A red flag means danger number %d.", i), Lang: schema.LangEN}
				if _, err := h.Header(context.Background(), doc, ch); err != nil {
					errs <- err
				}
				if _, err := e.Embed(context.Background(), []string{ch.Text}); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("a call failed although one endpoint was left: %v", err)
		}
	}
	calls(0, 40)
	a.Close() // one GPU server goes away mid-run
	calls(40, 100)
	if a.Calls(modelfake.OllamaChat) == 0 || b.Calls(modelfake.OllamaChat) == 0 {
		t.Errorf("got %d and %d chat calls, want both servers used", a.Calls(modelfake.OllamaChat), b.Calls(modelfake.OllamaChat))
	}
	if !strings.Contains(h.(*remote.ModelHeaders).Where, a.URL[len("http://"):]) {
		t.Errorf("the header writer names %q, want both endpoints", h.(*remote.ModelHeaders).Where)
	}
	st := e.(*remote.ModelEmbedder).Stats().Endpoints
	if len(st) != 2 || st[0].Calls == 0 || st[1].Calls == 0 {
		t.Errorf("got endpoint stats %+v, want both servers' calls", st)
	}
}
