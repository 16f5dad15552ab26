package stages

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages/settings"
)

// benchCorpus writes a generated corpus of at least size bytes (prose,
// safety, lore and structured documents in both languages) into a
// temporary folder and returns it with its exact size.
func benchCorpus(b *testing.B, size int64) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: every run measures the same corpus
	var total int64
	for i := 0; total < size; i++ {
		total += writeBenchDoc(b, dir, rng, i)
	}
	return dir, total
}

// writeBenchDoc writes the generated document i into dir and returns its size.
func writeBenchDoc(b *testing.B, dir string, rng *rand.Rand, i int) int64 {
	b.Helper()
	doc, rel := benchDoc(rng, i)
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		b.Fatal(err)
	}
	return int64(len(doc))
}

var benchSentences = []string{
	"Rip currents are narrow channels of fast water that flow away from the shore at up to 2.5 m/s.",
	"Waves above 1.5 m (5 ft) are dangerous for beginners, e.g. on the east coast in winter.",
	"Se for pego por uma corrente de retorno, nade paralelo à praia até sair dela.",
	"A água abaixo de 18,5 °C pode causar choque térmico, segundo o Sr. Almeida e a Dra. Souza.",
	"Ventos acima de 25 nós (46 km/h) levantam ondas de 2–3 m na Joaquina.",
	"Call 193 for the Corpo de Bombeiros and 192 for SAMU; since 2019 the service answers at any hour.",
	"The water in July is about 16 °C (61 °F), so a 3 mm wetsuit helps, approx. two hours of comfort.",
}

func benchDoc(rng *rand.Rand, i int) (string, string) {
	para := func(n int) string {
		s := make([]string, n)
		for j := range s {
			s[j] = benchSentences[rng.IntN(len(benchSentences))]
		}
		return strings.Join(s, " ")
	}
	var b strings.Builder
	kind, folder := []string{"prose", "safety", "lore", "structured"}[i%4], []string{"", "pt-BR/"}[i%2]
	fmt.Fprintf(&b, "# Document %d\nSource: https://example.org/%d\nKind: %s\n", i, i, kind)
	if kind == "lore" {
		b.WriteString("Beach: joaquina\n")
	}
	b.WriteString("\n")
	for s := 0; s < 4; s++ {
		fmt.Fprintf(&b, "## Section %d\n\n%s\n\n%s\n\n", s, para(2+rng.IntN(4)), para(1+rng.IntN(12)))
		fmt.Fprintf(&b, "- %s\n- %s\n  - %s\n\n", para(1), para(2), para(1))
		if kind == "structured" || s == 3 {
			b.WriteString("| Mês | Água (°C) | Vento (nós) |\n|---|---|---|\n| Janeiro | 24,5 | 10 |\n| Julho | 16 | 15 |\n\n")
		}
	}
	b.WriteString("```sh\n# not a heading\necho ok\n```\n")
	return b.String(), fmt.Sprintf("%s%03d/doc-%06d.md", folder, i%97, i)
}

// BenchmarkParseChunk measures parse + chunk throughput (MB/s) over a 50 MB
// generated corpus, through the runner, with one worker and with all cores.
func BenchmarkParseChunk(b *testing.B) {
	dir, size := benchCorpus(b, 50<<20)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := settings.DefaultConfig()
			cfg.Corpus, cfg.Workers = dir, workers
			b.SetBytes(size)
			for b.Loop() {
				p, err := Plan(context.Background(), cfg, publish.OutTarget(b.TempDir(), ""), Options{})
				if err != nil || p.Bytes != size || p.Rejected != 0 {
					b.Fatalf("plan: %v (%d bytes, want %d; %d rejected)", err, p.Bytes, size, p.Rejected)
				}
			}
		})
	}
}

// BenchmarkRun measures the whole offline run (normalise, extractive headers,
// built-in embeddings, Parquet) over a 5 MB corpus, and reports the seconds
// each stage took so the slowest one is visible.
func BenchmarkRun(b *testing.B) {
	dir, size := benchCorpus(b, 5<<20)
	cfg := testConfig(dir, "", 0)
	b.SetBytes(size)
	var res *Result
	for b.Loop() {
		var err error
		cfg.Out = filepath.Join(b.TempDir(), "snap") // a first run each time: nothing to reuse
		if res, err = runOut(context.Background(), cfg, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	for _, s := range res.Report.Stages {
		b.ReportMetric(s.Seconds, s.Name+"-s")
	}
}

// BenchmarkRerun measures an unchanged re-run of a 10 MB corpus against a
// parse-only pass over it (target ≤ 1.5×), and the embedding texts a run
// pays for when 1% of the documents change (target ≤ 1.5% of a full run's).
func BenchmarkRerun(b *testing.B) {
	dir, size := benchCorpus(b, 10<<20)
	cfg := testConfig(dir, filepath.Join(b.TempDir(), "snap"), 0)
	full := newBackends("v1", "m1")
	if _, err := runOut(context.Background(), cfg, full.opts()); err != nil {
		b.Fatal(err)
	}
	var plan, rerun, rebuild time.Duration
	b.SetBytes(size)
	version := 0
	for b.Loop() {
		t := time.Now()
		if _, err := Plan(context.Background(), cfg.Config, publish.OutTarget(cfg.Out, ""), Options{}); err != nil {
			b.Fatal(err)
		}
		plan += time.Since(t)
		// A new build of the tool rebuilds every row, reusing every header and vector...
		version++
		opt := newBackends("v1", "m1").opts()
		opt.ToolVersion = fmt.Sprint(version)
		t = time.Now()
		if _, err := runOut(context.Background(), cfg, opt); err != nil {
			b.Fatal(err)
		}
		rebuild += time.Since(t)
		// ...and the next night, nothing changed, it republishes.
		opt = newBackends("v1", "m1").opts()
		opt.ToolVersion = fmt.Sprint(version)
		t = time.Now()
		if _, err := runOut(context.Background(), cfg, opt); err != nil {
			b.Fatal(err)
		}
		rerun += time.Since(t)
	}
	b.ReportMetric(rerun.Seconds()/plan.Seconds(), "rerun/parse-only")
	b.ReportMetric(rebuild.Seconds()/plan.Seconds(), "rebuild-reusing/parse-only")

	paths, _, _ := corpus.Scan(dir, formats.All)
	for i := 0; i < len(paths); i += 100 { // 1% of the documents
		p := filepath.Join(dir, paths[i])
		doc, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(p, append(doc, []byte("\nA new closing paragraph, added tonight.\n")...), 0o644)
	}
	changed := newBackends("v1", "m1")
	if _, err := runOut(context.Background(), cfg, changed.opts()); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(100*float64(changed.e.texts.Load())/float64(full.e.texts.Load()), "%texts-after-1%-change")
	b.ReportMetric(100*float64(changed.h.calls.Load())/float64(full.h.calls.Load()), "%headers-after-1%-change")
}

// BenchmarkMemoryFlat runs the whole offline run over generated corpora of
// 2,000 and 20,000 documents and reports the peak of the live heap (sampled
// every 5 ms) for each: memory should follow what a run must keep to its
// end (counts, the thresholds for the proposal, the listing's paths), not
// the documents it has finished with (their rows, the Parquet footer's
// metadata, their diagnostics: streamed to disk).
//
//	go test ./stages -run '^$' -bench MemoryFlat -benchtime 1x
func BenchmarkMemoryFlat(b *testing.B) {
	for _, docs := range []int{2000, 20000} {
		b.Run(fmt.Sprintf("docs=%d", docs), func(b *testing.B) {
			dir := b.TempDir()
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range docs {
				writeBenchDoc(b, dir, rng, i)
			}
			cfg := testConfig(dir, "", 0)
			var peak uint64
			for b.Loop() {
				cfg.Out = filepath.Join(b.TempDir(), "snap")
				peak = max(peak, peakHeap(b, func() error { _, err := runOut(context.Background(), cfg, Options{}); return err }))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkMemoryCorpus is BenchmarkMemoryFlat over a corpus of your own:
// INGEST_BENCH_CORPUS, with the source_url_template and exclude of the YAML
// file INGEST_BENCH_CONFIG (skipped without a corpus). just bench-scale
// measures the command's peak RSS on the otel copies; this is the same run
// in process, for -memprofile (the allocations) and the peak live heap:
//
//	INGEST_BENCH_CORPUS=~/.cache/ingest-bench/otel-x112 INGEST_BENCH_CONFIG=otel.yaml \
//	  go test ./stages -run '^$' -bench MemoryCorpus -benchtime 1x -memprofile mem.prof
func BenchmarkMemoryCorpus(b *testing.B) {
	dir := os.Getenv("INGEST_BENCH_CORPUS")
	if dir == "" {
		b.Skip("INGEST_BENCH_CORPUS names no corpus")
	}
	cfg := testConfig(dir, "", 0)
	if path := os.Getenv("INGEST_BENCH_CONFIG"); path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		var f struct {
			SourceURLTemplate string   `yaml:"source_url_template"`
			Exclude           []string `yaml:"exclude"`
		}
		if err := yaml.Unmarshal(raw, &f); err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		cfg.SourceURLTemplate, cfg.Exclude = f.SourceURLTemplate, f.Exclude
	}
	var peak uint64
	for b.Loop() {
		cfg.Out = filepath.Join(b.TempDir(), "snap")
		peak = max(peak, peakHeap(b, func() error { _, err := runOut(context.Background(), cfg, Options{}); return err }))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// peakHeap runs run and returns the highest live heap sampled every 5 ms
// while it ran.
func peakHeap(b *testing.B, run func() error) uint64 {
	b.Helper()
	runtime.GC()
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() {
		var m runtime.MemStats
		var top uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				done <- top
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				top = max(top, m.HeapAlloc)
			}
		}
	}()
	err := run()
	close(stop)
	top := <-done
	if err != nil {
		b.Fatal(err)
	}
	return top
}
