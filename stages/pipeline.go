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

	stage   *artifacts.Staging
	writer  *artifacts.ChunkWriter
	cancel  context.CancelFunc
	errMu   sync.Mutex
	err     error
	runID   string
	keys    artifacts.CacheKeys
	prev    *previous // nil: nothing to reuse
	journal *journal  // nil in plan mode
	audit   *auditLog // nil in plan mode
	calls   callCounts
	models  artifacts.ModelReport // filled on the docs stream's callback goroutine
	// journal what costs: a model's headers and vectors, not the offline ones
	journalHeaders, journalVectors bool

	plan        *PlanResult // set by Plan: count, do not enrich, embed or write
	fingerprint hash.Hash
	input       hash.Hash          // the input fingerprint, fed in corpus order
	thresholds  []schema.Threshold // for thresholds.md: a few per document at most
	counts      artifacts.Counts
	diags       []schema.Diagnostic
	problems    int // diagnostics that are errors or warnings
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
	if cfg.LLMConcurrency == 0 {
		cfg.LLMConcurrency = cfg.Workers
	}
	if cfg.EmbedConcurrency == 0 {
		cfg.EmbedConcurrency = cfg.Workers
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
		fingerprint: sha256.New(), input: sha256.New(), stats: map[string]*artifacts.StageStat{},
		runID: newRunID(), keys: cacheKeys(opt.Headers, opt.Embedder, cfg),
		journalHeaders: !offline(opt.Headers), journalVectors: !offline(opt.Embedder),
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
		r.prev.close()
		if !published {
			r.audit.abort()
			_ = r.stage.Abort()
			if r.journal != nil {
				_ = r.journal.close() // kept: the next run resumes from it
			}
		}
	}()
	r.openPrevious(ctx)
	if r.journal, err = openJournal(journalPath(r.cfg.Out)); err != nil {
		return nil, err
	}
	prevDir := ""
	if r.prev != nil {
		prevDir = r.prev.dir
	}
	if r.audit, err = newAudit(r.stage.Path(artifacts.AuditFile), r.runID, prevDir); err != nil {
		return nil, err
	}
	if r.sameMaking() {
		h, err := r.hashInputs(ctx, paths)
		if err != nil {
			return nil, err
		}
		if input := inputFingerprint(h, skipped); input == r.prev.manifest.InputFingerprint {
			res, err := r.republish(start, input)
			if err != nil {
				return nil, err
			}
			if err := r.stage.Commit(); err != nil {
				return nil, err
			}
			published = true
			_ = r.journal.remove()
			return res, nil
		}
	}
	if err := r.openWriter(); err != nil {
		return nil, err
	}
	ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()

	r.stream(ctx, paths)
	if err := r.failed(); err != nil {
		r.writer.Abort()
		return nil, r.stopped(err)
	}
	if err := ctx.Err(); err != nil {
		r.writer.Abort()
		return nil, r.stopped(err)
	}
	if err := r.strict(); err != nil {
		r.writer.Abort()
		return nil, err
	}
	if r.prev != nil {
		gone, err := r.prev.rest()
		if err != nil {
			r.writer.Abort()
			return nil, err
		}
		r.audit.supersede("", gone)
	}
	res, err := r.finish(skipped, len(paths), start)
	if err != nil {
		return nil, err
	}
	if err := r.stage.Commit(); err != nil {
		return nil, err
	}
	published = true
	if err := r.journal.remove(); err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, nil // published; a stale journal only holds results already in the snapshot
	}
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

// hasProblems reports an error or warning so far: what --strict refuses.
func (r *run) hasProblems() bool { return r.problems > 0 }

// strict fails the run when --strict is on and any error or warning was found.
func (r *run) strict() error {
	if !r.cfg.Strict {
		return nil
	}
	if r.problems > 0 {
		return fmt.Errorf("%w: %d problems; nothing published", ErrStrict, r.problems)
	}
	return nil
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}
