package backends

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/modelfake"
)

// BenchmarkEmbedThroughput runs N goroutines calling Embed on batches of 10
// against the fake at a fixed latency, and reports wall time over the ideal
// Σlatency/N: 1.00 x-ideal is a client that adds nothing to the server's
// time and whose calls overlap perfectly. Two widths separate the client's
// own cost (64) from JSON's: a 1024-float batch costs milliseconds of CPU to
// encode and decode, which a 20 ms fake makes look large and a real model's
// hundreds of milliseconds do not. The OpenAI backend (its SDK) is
// measured at 1,024 dimensions beside Ollama's.
//
//	go test ./models -run '^$' -bench EmbedThroughput -benchtime 200x
func BenchmarkEmbedThroughput(b *testing.B) {
	const latency = 20 * time.Millisecond
	for _, bc := range []struct {
		kind    backendKind
		dims, n int
	}{
		{backendKinds[0], 64, 1}, {backendKinds[0], 64, 2}, {backendKinds[0], 64, 4}, {backendKinds[0], 64, 8},
		{backendKinds[0], 1024, 1}, {backendKinds[0], 1024, 2}, {backendKinds[0], 1024, 4}, {backendKinds[0], 1024, 8},
		{backendKinds[1], 1024, 1}, {backendKinds[1], 1024, 8}, // the OpenAI SDK decodes float64s by reflection
	} {
		dims, n := bc.dims, bc.n
		name := fmt.Sprintf("dims=%d/concurrency=%d", dims, n)
		if bc.kind.name != "ollama" {
			name = bc.kind.name + "/" + name
		}
		b.Run(name, func(b *testing.B) {
			_, _, e := openFakeBackends(b, bc.kind, modelfake.Options{Dims: dims, Latency: latency}, nil)
			texts := backendTexts(models.DefaultBatchSize)
			ctx := context.Background()
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for range n {
				wg.Go(func() {
					for next.Add(1) <= int64(b.N) {
						if _, err := e.Embed(ctx, texts); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			wall := time.Since(start)
			ideal := time.Duration(b.N) * latency / time.Duration(n)
			b.ReportMetric(wall.Seconds()/ideal.Seconds(), "x-ideal")
		})
	}
}
