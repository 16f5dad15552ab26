package markdown

import (
	"github.com/ocean-safety/ingest/chunking"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/ocean-safety/ingest/corpus"
)

// benchFile is one document of the benchmark corpus, read once.
type benchFile struct {
	rel string
	raw []byte
}

// benchCorpus is the folder BenchmarkChunk reads: the shipped corpus, or the
// one INGEST_BENCH_CORPUS names (../shared/corpora/otel/en, say).
func benchCorpus() string {
	if dir := os.Getenv("INGEST_BENCH_CORPUS"); dir != "" {
		return dir
	}
	return "../../corpus/ocean"
}

// benchSet is the benchmark's corpus with the parser and chunker that cut it.
type benchSet struct {
	p     *corpus.Reader
	ch    *chunking.Chunker
	files []benchFile
	size  int64 // bytes of files
	// cuts counts the chunks, inSentence those whose source span ends inside
	// a sentence (see midSentence): the quality a faster chunker must keep.
	cuts, inSentence int
}

// benchSetup reads the documents the pipeline would chunk (partials
// excluded as the otel config does; rejected and draft documents left out,
// since the pipeline never chunks them) with a parser and chunker configured
// as a run's defaults configure them, and chunks them once to count the cuts.
func benchSetup(b *testing.B) benchSet {
	b.Helper()
	root := benchCorpus()
	l, err := corpus.ScanFiltered(root, corpus.Filter{Exclude: []string{"**/_includes/**"}}, markdownOnly)
	if err != nil {
		b.Fatal(err)
	}
	opt := corpus.Options{
		DefaultLang:       "en",
		Limits:            corpus.DefaultLimits(),
		SourceURLTemplate: "https://example.org/{path}/", // otel pages name no source
		RootName:          filepath.Base(filepath.Clean(root)),
	}
	set := benchSet{p: markdownOnly.Reader(root, opt)}
	if set.ch, err = chunking.NewChunker(chunking.DefaultConfig(), ""); err != nil {
		b.Fatal(err)
	}
	for _, rel := range l.Docs {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			b.Fatal(err)
		}
		parsed := set.p.ParseBytes(rel, raw)
		if parsed.Rejected || parsed.Doc.Draft {
			continue
		}
		set.files = append(set.files, benchFile{rel, raw})
		set.size += int64(len(raw))
		chunks, _ := set.ch.Chunk(parsed.Body)
		for _, c := range chunks {
			set.cuts++
			if chunking.CutInSentence(parsed.Body, c) {
				set.inSentence++
			}
		}
	}
	if len(set.files) == 0 {
		b.Fatalf("%s: no documents to chunk", root)
	}
	return set
}

// benchGoldmark is the ceiling: goldmark configured as New configures
// it, parsing each file and walking every node of its tree.
func benchGoldmark(md goldmark.Markdown, files []benchFile) int {
	nodes := 0
	for _, f := range files {
		root := md.Parser().Parse(text.NewReader(f.raw))
		_ = ast.Walk(root, func(ast.Node, bool) (ast.WalkStatus, error) {
			nodes++
			return ast.WalkContinue, nil
		})
	}
	return nodes
}

// benchChunk is what a run's parse and chunk stages do to each file once it
// is read (see stages' parseChunk): hash its bytes, read its front matter and
// header, blank its markup, parse it, and cut it into chunks with their ids.
func benchChunk(p *corpus.Reader, ch *chunking.Chunker, files []benchFile) int {
	chunks := 0
	for _, f := range files {
		parsed := p.ParseBytes(f.rel, f.raw)
		parsed.RawSHA256 = corpus.Digest(f.raw)
		cs, _ := ch.Chunk(parsed.Body)
		chunks += len(cs)
	}
	return chunks
}

// BenchmarkChunk measures parse + chunk against a bare goldmark parse and
// walk of the same files in the same process. goldmark and chunker give each
// side's MB/s; ratio runs the two passes in turn, timing each by the
// process's CPU time (GC included; steadier than wall time on a shared
// machine), and reports chunker/goldmark (the target is ≥ 0.8) and the
// share of chunks cut inside a sentence (the target is 0).
func BenchmarkChunk(b *testing.B) {
	set := benchSetup(b)
	p, ch, files, size := set.p, set.ch, set.files, set.size
	md := goldmark.New(goldmark.WithExtensions(extension.Table)) // as New
	b.Logf("%s: %d documents, %d bytes, %d chunks, %d cut inside a sentence", benchCorpus(), len(files), size, set.cuts, set.inSentence)
	b.Run("goldmark", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			benchGoldmark(md, files)
		}
	})
	b.Run("chunker", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			benchChunk(p, ch, files)
		}
	})
	b.Run("ratio", func(b *testing.B) {
		var gm, ck time.Duration
		pass := func(d *time.Duration, f func()) {
			t := cpuTime()
			f()
			*d += cpuTime() - t
		}
		i := 0
		for b.Loop() {
			g := func() { benchGoldmark(md, files) }
			c := func() { benchChunk(p, ch, files) }
			if i%2 == 0 { // alternate which goes first
				pass(&gm, g)
				pass(&ck, c)
			} else {
				pass(&ck, c)
				pass(&gm, g)
			}
			i++
		}
		mb := float64(size) * float64(i) / 1e6
		b.ReportMetric(mb/gm.Seconds(), "goldmark-MB/cpu-s")
		b.ReportMetric(mb/ck.Seconds(), "chunker-MB/cpu-s")
		b.ReportMetric(gm.Seconds()/ck.Seconds(), "chunker/goldmark")
		b.ReportMetric(100*float64(set.inSentence)/float64(set.cuts), "%cuts-in-sentence")
	})
}
