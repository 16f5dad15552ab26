package stages

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/sourcegraph/conc/stream"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// ErrStrict is returned when --strict finds diagnostics: nothing is published.
var ErrStrict = errors.New("strict mode: the corpus has errors or warnings")

// Options are a run's seams: what is plugged in rather than configured.
type Options struct {
	Headers     HeaderWriter // nil: the extractive writer
	Embedder    Embedder     // nil: the built-in embedder
	Reporter    Reporter     // nil: Discard
	ToolVersion string
	// CreateFile opens the Parquet file; nil is os.Create. Tests use it to
	// inject a failing disk.
	CreateFile func(path string) (io.WriteCloser, error)
}

// Status is how a finished run went.
type Status string

// The statuses of a run that published.
const (
	StatusOK      Status = "ok"
	StatusPartial Status = "partial" // some documents were rejected
)

// Result is what a published run produced.
type Result struct {
	Status   Status
	Manifest artifacts.Manifest
	Report   artifacts.Report
}

// stage names, in pipeline order.
const (
	stageParse     = "parse"
	stageChunk     = "chunk"
	stageNormalise = "normalise"
	stageHeader    = "header"
	stageEmbed     = "embed"
	stageWrite     = "write"
)

var stageOrder = []string{stageParse, stageChunk, stageNormalise, stageHeader, stageEmbed, stageWrite}

// Run ingests cfg.Corpus into a snapshot published at cfg.Out. Documents
// are parsed, chunked and given headers by cfg.Workers workers; chunks are
// embedded in batches of embed.batch_size, several batches in flight; rows
// are written in (doc_path, chunk_order) order whatever the number of
// workers, because the order is fixed when work is submitted, not when it
// finishes. Nothing is published unless the whole run succeeds.
func Run(ctx context.Context, cfg Config, opt Options) (*Result, error) {
	r, err := newRun(cfg, opt)
	if err != nil {
		return nil, err
	}
	return r.run(ctx)
}

// run holds one run's state. Its fields are touched only from the ordered
// callbacks of the two streams, never from the workers.
type run struct {
	cfg        Config
	opt        Options
	parser     *Parser
	chunker    *Chunker
	normaliser Normaliser
	headers    HeaderWriter
	embed      Embedder
	rep        Reporter

	stage  *artifacts.Staging
	writer *artifacts.ChunkWriter
	cancel context.CancelFunc
	errMu  sync.Mutex
	err    error

	plan        *PlanResult // set by Plan: count, do not enrich, embed or write
	fingerprint hash.Hash
	thresholds  []schema.Threshold // for thresholds.md: a few per document at most
	counts      artifacts.Counts
	diags       []schema.Diagnostic
	stats       map[string]*artifacts.StageStat
	docsDone    int
	statsMu     sync.Mutex // embed and doc callbacks run on two goroutines
}

func newRun(cfg Config, opt Options) (*run, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	chunker, err := NewChunker(cfg.Chunk, cfg.TenantID)
	if err != nil {
		return nil, err
	}
	if opt.Headers == nil {
		opt.Headers = NewExtractive(cfg.Header.MaxChars)
	}
	if opt.Embedder == nil {
		opt.Embedder = NewBuiltin(cfg.Embed.Dims)
	}
	if opt.Embedder.Dims() != cfg.Embed.Dims {
		return nil, fmt.Errorf("embedder %s gives %d dimensions, config embed.dims is %d", opt.Embedder.Name(), opt.Embedder.Dims(), cfg.Embed.Dims)
	}
	if opt.Reporter == nil {
		opt.Reporter = Discard
	}
	if opt.CreateFile == nil {
		opt.CreateFile = func(p string) (io.WriteCloser, error) { return os.Create(p) }
	}
	copt := corpus.Options{DefaultLang: schema.Lang(cfg.DefaultLang), SourceOptional: !cfg.requireSource(), SourceLabel: cfg.SourceLabel}
	r := &run{
		cfg: cfg, opt: opt, parser: NewParser(cfg.Corpus, copt), chunker: chunker,
		headers: opt.Headers, embed: opt.Embedder, rep: opt.Reporter,
		fingerprint: sha256.New(), stats: map[string]*artifacts.StageStat{},
	}
	for _, s := range stageOrder {
		r.stats[s] = &artifacts.StageStat{Name: s}
	}
	return r, nil
}

func (r *run) run(ctx context.Context) (*Result, error) {
	start := time.Now()
	paths, skipped, err := corpus.Scan(r.cfg.Corpus)
	if err != nil {
		return nil, err
	}
	if r.stage, err = artifacts.Stage(r.cfg.Out); err != nil {
		return nil, err
	}
	published := false
	defer func() {
		if !published {
			_ = r.stage.Abort()
		}
	}()
	if err := r.openWriter(); err != nil {
		return nil, err
	}
	ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()

	r.stream(ctx, paths)
	if r.err == nil && ctx.Err() != nil {
		r.err = ctx.Err()
	}
	if r.err != nil {
		r.writer.Abort()
		return nil, r.err
	}
	if err := r.strict(); err != nil {
		r.writer.Abort()
		return nil, err
	}
	res, err := r.finish(skipped, len(paths), start)
	if err != nil {
		return nil, err
	}
	if err := r.stage.Commit(); err != nil {
		return nil, err
	}
	published = true
	return res, nil
}

func (r *run) openWriter() error {
	path := r.stage.Path(artifacts.ChunksFile)
	f, err := r.opt.CreateFile(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	r.writer, err = artifacts.NewChunkWriterTo(f, path, r.cfg.Embed.Dims)
	return err
}

// stream runs the two ordered streams: documents (parse, chunk, header) and
// embedding batches (embed, write). Each stream bounds its goroutines; the
// doc stream's callbacks feed the embed stream, whose callbacks write.
func (r *run) stream(ctx context.Context, paths []string) {
	docs := stream.New().WithMaxGoroutines(r.cfg.Workers)
	batches := stream.New().WithMaxGoroutines(r.cfg.Workers)
	var pending []schema.Chunk
	flush := func() {
		if len(pending) > 0 {
			r.submitBatch(ctx, batches, pending)
			pending = nil
		}
	}
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		docs.Go(func() stream.Callback {
			res := r.processDoc(ctx, p)
			return func() {
				for _, c := range r.collect(res, len(paths)) {
					pending = append(pending, c)
					if len(pending) == r.cfg.Embed.BatchSize {
						flush()
					}
				}
			}
		})
	}
	docs.Wait()
	flush()
	batches.Wait()
}

// docResult is one document after parse, chunk and header.
type docResult struct {
	path     string
	doc      schema.Document
	chunks   []schema.Chunk
	diags    []schema.Diagnostic
	rejected bool
	err      error
	took     map[string]time.Duration
}

// processDoc runs the per-document stages on a worker.
func (r *run) processDoc(ctx context.Context, path string) docResult {
	res := docResult{path: path, took: map[string]time.Duration{}}
	if ctx.Err() != nil {
		res.err = ctx.Err()
		return res
	}
	t := time.Now()
	p, err := r.parser.Parse(path)
	res.took[stageParse] = time.Since(t)
	if err != nil {
		res.err = err
		return res
	}
	res.doc, res.diags, res.rejected = p.Doc, p.Diags, p.Rejected
	if p.Rejected {
		return res
	}
	t = time.Now()
	chunks, diags := r.chunker.Chunk(p)
	res.took[stageChunk] = time.Since(t)
	res.diags = append(res.diags, diags...)

	if r.plan != nil {
		res.chunks = chunks
		return res
	}
	t = time.Now()
	for i := range chunks {
		r.normaliser.Normalise(&chunks[i])
	}
	res.took[stageNormalise] = time.Since(t)

	t = time.Now()
	for i := range chunks {
		e, err := r.headers.Header(ctx, p.Doc, chunks[i])
		if err != nil {
			res.err = fmt.Errorf("header %s: %w", chunks[i].Key(), err)
			return res
		}
		chunks[i].ContextHeader, chunks[i].HeaderSource, chunks[i].Fields = e.Header, e.Source, e.Fields
	}
	res.took[stageHeader] = time.Since(t)
	res.chunks = chunks
	return res
}

// collect takes a document's result in corpus order and returns the chunks to embed.
func (r *run) collect(res docResult, total int) []schema.Chunk {
	if res.err != nil {
		r.fail(res.err)
		return nil
	}
	r.statsMu.Lock()
	for s, d := range res.took {
		r.stats[s].Items++
		r.stats[s].Seconds += d.Seconds()
	}
	r.statsMu.Unlock()
	for _, d := range res.diags {
		r.diags = append(r.diags, d)
		r.rep.Diagnostic(d)
	}
	r.docsDone++
	r.rep.Progress("documents", r.docsDone, total)
	if res.rejected {
		r.counts.Rejected++
		return nil
	}
	if r.cfg.Strict && r.hasProblems() {
		r.fail(ErrStrict)
		return nil
	}
	r.counts.Documents++
	fmt.Fprintf(r.fingerprint, "%s\x00%s\n", res.path, res.doc.Version)
	if r.plan != nil {
		r.planned(res)
		return nil
	}
	for _, c := range res.chunks {
		r.thresholds = append(r.thresholds, c.Thresholds...)
	}
	return res.chunks
}

// submitBatch embeds one batch on a worker and writes it in order.
func (r *run) submitBatch(ctx context.Context, batches *stream.Stream, batch []schema.Chunk) {
	batches.Go(func() stream.Callback {
		inputs := make([]string, len(batch))
		for i, c := range batch {
			inputs[i] = EmbedInput(c)
		}
		t := time.Now()
		vecs, err := r.embed.Embed(ctx, inputs)
		took := time.Since(t)
		if err == nil && len(vecs) != len(batch) {
			err = fmt.Errorf("embedder %s returned %d vectors for %d inputs", r.embed.Name(), len(vecs), len(batch))
		}
		return func() {
			if err != nil {
				r.fail(fmt.Errorf("embed batch at %s: %w", batch[0].Key(), err))
				return
			}
			if r.failed() != nil {
				return
			}
			r.write(batch, vecs, took)
		}
	})
}

func (r *run) write(batch []schema.Chunk, vecs [][]float32, embedTook time.Duration) {
	t := time.Now()
	for i := range batch {
		batch[i].Embedding = vecs[i]
		if err := r.writer.Write(batch[i]); err != nil {
			r.fail(err)
			return
		}
		r.counts.Add(batch[i])
	}
	r.statsMu.Lock()
	r.stats[stageEmbed].Items += len(batch)
	r.stats[stageEmbed].Seconds += embedTook.Seconds()
	r.stats[stageWrite].Items += len(batch)
	r.stats[stageWrite].Seconds += time.Since(t).Seconds()
	r.statsMu.Unlock()
	r.rep.Progress("chunks", r.writer.Rows(), -1)
}

// fail records the run's first error and cancels the rest of the work.
func (r *run) fail(err error) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if r.err == nil {
		r.err = err
		r.cancel()
	}
}

func (r *run) failed() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	return r.err
}

func (r *run) hasProblems() bool {
	for _, d := range r.diags {
		if d.Severity != schema.SeverityInfo {
			return true
		}
	}
	return false
}

// strict fails the run when --strict is on and any error or warning was found.
func (r *run) strict() error {
	if !r.cfg.Strict {
		return nil
	}
	n := 0
	for _, d := range r.diags {
		if d.Severity != schema.SeverityInfo {
			n++
		}
	}
	if n > 0 {
		return fmt.Errorf("%w: %d problems; nothing published", ErrStrict, n)
	}
	return nil
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
