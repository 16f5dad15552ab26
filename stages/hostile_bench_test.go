package stages

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
)

// hostileShapes are the Markdown shapes the parser was quadratic on (the
// issue's reproductions, now refused by a limit before it runs) and the
// worst of each that the limits still let through, at two sizes: with the
// limits, MB/s stays the same when the size doubles (linear), where it fell
// fourfold or more per doubling.
var hostileShapes = []struct {
	name string
	unit string // repeated to make the document
	n    []int  // repetitions: one size, then twice it
}{
	{"emphasis *a_ 396KB (refused)", "*a_ ", []int{99_000}},
	{"links [x]( x50000 (refused)", "[x](", []int{50_000}},
	{"table 100 columns 2MB (refused)", "", nil},
	{"emphasis 1998 runs a paragraph", strings.Repeat("*a_ ", 999) + "\n\n", []int{50, 100}},
	{"links 128 a run", strings.Repeat("[x](", 128) + " ", []int{750, 1500}},
	{"links < 128 a line", strings.Repeat("[x](< ", 128) + "\n", []int{350, 700}},
	{"table 4 columns 24999 rows", "| 1 | 2 | 3 | 4 |\n", []int{12_499, 24_998}},
}

// BenchmarkHostileMarkdown parses and chunks each hostile shape: time per
// byte, and the peak heap of one document (MB reported).
func BenchmarkHostileMarkdown(b *testing.B) {
	for _, s := range hostileShapes {
		sizes := s.n
		if sizes == nil {
			sizes = []int{0}
		}
		for _, n := range sizes {
			doc := "# Hostile\nSource: https://example.org/h\n\n"
			switch {
			case s.unit == "":
				row := "|" + strings.Repeat("a|", 100) + "\n"
				doc += "|" + strings.Repeat("h|", 100) + "\n|" + strings.Repeat("-|", 100) + "\n" + strings.Repeat(row, (2<<20)/len(row))
			case strings.HasPrefix(s.unit, "| 1"):
				doc += "| a | b | c | d |\n|---|---|---|---|\n" + strings.Repeat(s.unit, n)
			default:
				doc += strings.Repeat(s.unit, n)
			}
			b.Run(fmt.Sprintf("%s/%dKB", s.name, len(doc)>>10), func(b *testing.B) {
				parser := formats.All.Reader(".", corpus.Options{})
				chunker, err := chunking.NewChunker(chunking.DefaultConfig(), "")
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(doc)))
				var peak uint64
				for range b.N {
					var before, after runtime.MemStats
					runtime.GC()
					runtime.ReadMemStats(&before)
					p := parser.ParseBytes("d.md", []byte(doc))
					chunker.Chunk(p.Body)
					runtime.ReadMemStats(&after)
					peak = max(peak, after.TotalAlloc-before.TotalAlloc)
				}
				b.ReportMetric(float64(peak)/(1<<20), "MB-alloc/doc")
			})
		}
	}
}
