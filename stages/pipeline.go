package stages

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/audit"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/dispatch"
	"github.com/ocean-safety/ingest/stages/reuse"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/thresholds"
)

// ErrStrict is returned when --strict finds diagnostics: nothing is published.
var ErrStrict = errors.New("strict mode: the corpus has errors or warnings")

// ErrNothing is a run that would publish no document: an empty or
// mis-pointed corpus, or one whose every document was rejected. Nothing is
// published; the previous snapshot stays.
var ErrNothing = errors.New("no document to publish")

// ErrShrink is a run that would drop more of the previous snapshot's
// documents than publish.max_shrink allows. Nothing is published.
var ErrShrink = errors.New("the snapshot would shrink")

// ErrPanic marks a bug met in a stage: the run stops as on any other error,
// with nothing published and the journal kept, and says where.
var ErrPanic = errors.New("panic")

// Options are a run's seams: what is plugged in rather than configured.
type Options struct {
	Headers  models.HeaderWriter // nil: the extractive writer
	Embedder models.Embedder     // nil: the built-in embedder
	// OpenModels, when set, opens the header writer and the embedder once
	// the run holds its target, in the place of Headers and Embedder.
	OpenModels  ModelOpener
	Reporter    Reporter // nil: Discard
	ToolVersion string
	// LockWait is how long to wait for another run of the same target to
	// finish (0: fail at once with an *publish.LockedError).
	LockWait time.Duration
	// Logger gets what the run does (nil: nothing is logged). The library
	// never prints; progress and diagnostics go to Reporter.
	Logger *slog.Logger
	// CreateFile opens the Parquet file; nil is os.Create. Tests use it to
	// inject a failing disk.
	CreateFile func(path string) (io.WriteCloser, error)
	// RelevanceFloor, when set, is the relevance floor the manifest records
	// for the run's embedder (search.ManifestFloor, which the CLI passes:
	// search owns what relevance means, and the pipeline does not import
	// it); nil or a nil floor: the manifest records none.
	RelevanceFloor func(embedder string) *artifacts.RelevanceFloor
	// Stamps is the file of the corpus's stamps on this machine
	// (reuse.StampsPath): a file whose stamp has not changed since a run
	// hashed it is not read again to learn its input hash, and a run that
	// publishes records the stamps it read. "" reads and hashes every
	// file, and records none.
	Stamps string
	// Rehash reads and hashes every file whatever its stamp; the stamps
	// are recorded anew.
	Rehash bool
}

// Status is how a finished run went.
type Status string

// The statuses of a run that published.
const (
	StatusOK      Status = "ok"
	StatusPartial Status = "partial" // some documents were rejected, or some of the corpus could not be read
)

// Result is what a published run produced.
type Result struct {
	Status    Status
	Manifest  artifacts.Manifest
	Report    artifacts.Report
	Published publish.Published // where the snapshot went
	// Cleaned lists the temporary folders crashed runs had left beside the
	// target, removed by this one.
	Cleaned []string
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

// Run ingests cfg.Corpus into a snapshot published at target. Documents
// are parsed, chunked and given headers by cfg.Workers workers; chunks are
// embedded in batches of embed.batch_size, several batches in flight; rows
// are written in (doc_path, chunk_order) order whatever the number of
// workers, because the order is fixed when work is submitted, not when it
// finishes. Nothing is published unless the whole run succeeds.
func Run(ctx context.Context, cfg settings.Config, target publish.Target, opt Options) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	lock, err := Claim(ctx, target, cfg.Corpus, !cfg.Shard.Whole(), opt.LockWait)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if opt, err = openModels(ctx, cfg, target, opt); err != nil {
		return nil, err
	}
	r, err := newRun(cfg, opt)
	if err != nil {
		return nil, err
	}
	r.target = target
	log := r.opt.Logger.With("target", target.String())
	if len(lock.Cleaned) > 0 {
		log.Info("removed what interrupted runs left", "folders", lock.Cleaned)
	}
	res, err := r.run(ctx)
	switch {
	case err != nil && res == nil:
		log.Info("run stopped; nothing published", "error", err) // the caller reports the error itself
	case res != nil:
		res.Cleaned = lock.Cleaned
		res.Published.Quarantined = append(lock.Quarantined, res.Published.Quarantined...)
		log.Info("published", "path", res.Published.Path, "name", res.Published.Name, "reused", res.Published.Reused,
			"pruned", res.Published.Pruned, "documents", res.Manifest.Counts.Documents, "chunks", res.Manifest.Counts.Chunks)
	}
	return res, err
}

// run is one run. Its fields are set before the streams start and only read
// while they run; what the streams count lives in tallies, each owned by one
// stream's callbacks (see runner.go) and merged after they finish. The
// journal and the audit log lock themselves; errs is safe from anywhere.
type run struct {
	cfg            settings.Config
	opt            Options
	target         publish.Target
	parser         *corpus.Reader
	chunker        *chunking.Chunker
	normaliser     thresholds.Normaliser
	headers        models.HeaderWriter
	embed          models.Embedder
	rep            Reporter
	runID          string
	keys           artifacts.CacheKeys
	offlineHeaders bool // headers are written on the documents' workers
	// batchMisses is how many texts to embed a batch waits for: a model
	// server's embed.batch_size, so calls start as soon as there is one;
	// offline, a whole batch of rows, so the streams hand over work in
	// pieces worth the handoff.
	batchMisses int
	// llmSlots and embedSlots bound the calls in flight (see stream); a
	// writer with servers (lanes) has its calls admitted by dispatch.
	llmSlots, embedSlots slots
	lanes                models.Lanes
	dispatch             *dispatch.Dispatcher

	stage  *publish.Staging
	writer *artifacts.ChunkWriter
	prev   *reuse.Previous // nil: nothing to reuse
	// inputs are the input hashes of the documents the run makes, in
	// corpus order, when the check for an unchanged corpus read them (nil
	// otherwise): a document taken whole is not read a second time.
	inputs  *inputSums
	journal *reuse.Journal
	reuse   *reuse.Resolver // over prev's offers and the journal, once it is open
	audit   *audit.Log
	diags   *diagnostics.Writer // diagnostics.jsonl: opened by build or republish; written, once the streams start, by the enrich stream's callbacks (their docTally's)
	errs    firstError
	// setup holds what was found before the streams started (a previous
	// snapshot not trusted, names that are not UTF-8).
	setup    []schema.Diagnostic
	excluded int // documents the include/exclude globs left out
	// stampsIn are the stamps a run before recorded (Options.Stamps),
	// read by hashInputs; stampsOut this run's, written in corpus order by
	// hashInputs when it reads every listed document (stampsAll), else by
	// collect, and put in place once the run has published.
	stampsIn  *reuse.StampReader
	stampsOut *reuse.StampWriter
	stampsAll bool
	// part is set on a shard's run: what its manifest says of the shard.
	part *artifacts.ShardInfo
	// partDocs is the snapshot's account of its documents, which a merge
	// and the next run read (artifacts.DocumentsFile).
	partDocs *artifacts.PartDocWriter
}

// newRun sets a run up from a validated config and opt's models (see
// openModels).
func newRun(cfg settings.Config, opt Options) (*run, error) {
	if cfg.Workers == 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	chunker, err := chunking.NewChunker(cfg.Chunk, cfg.TenantID)
	if err != nil {
		return nil, err
	}
	// llm_concurrency and embed_concurrency bound calls to a model server;
	// offline, headers and vectors are CPU work like parsing, and take the
	// workers: --workers 1 is one core's worth of work, 2 is two. A model
	// writer with servers learns each one's calls in flight (models.Lanes)
	// unless llm_concurrency fixes them.
	lanes, _ := opt.Headers.(models.Lanes)
	switch {
	case models.Offline(opt.Headers):
		cfg.LLMConcurrency, lanes = cfg.Workers, nil
	case lanes != nil && cfg.LLMConcurrency > 0:
		lanes.Fix(cfg.LLMConcurrency)
	case lanes == nil && cfg.LLMConcurrency == 0:
		cfg.LLMConcurrency = cfg.Workers
	}
	if cfg.EmbedConcurrency == 0 || models.Offline(opt.Embedder) {
		cfg.EmbedConcurrency = cfg.Workers
	}
	// embed.dims is the built-in embedder's; a model's vectors are as wide
	// as the model makes them, and the config hash records that width.
	if !models.Offline(opt.Embedder) {
		cfg.Embed.Dims = opt.Embedder.Dims()
	}
	if opt.Embedder.Dims() != cfg.Embed.Dims {
		return nil, schema.Setting("embed.dims", "%d, but embedder %s gives %d dimensions", cfg.Embed.Dims, opt.Embedder.Name(), opt.Embedder.Dims())
	}
	if opt.Reporter == nil {
		opt.Reporter = Discard
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.CreateFile == nil {
		opt.CreateFile = func(p string) (io.WriteCloser, error) { return os.Create(p) }
	}
	return &run{
		cfg: cfg, opt: opt, parser: formats.All.Reader(cfg.Corpus, cfg.CorpusOptions()), chunker: chunker,
		headers: opt.Headers, embed: opt.Embedder, rep: opt.Reporter,
		runID: NewRunID(), keys: reuse.CacheKeys(opt.Headers.Name(), cfg.Header.MaxChars, opt.Embedder.Name(), opt.Embedder.Dims()),
		offlineHeaders: models.Offline(opt.Headers),
		batchMisses:    batchMisses(cfg, opt.Embedder), lanes: lanes,
	}, nil
}

// stampsKey is what the stamps a run reads and writes are recorded under:
// its build, tool version and configuration, which decide how a
// document's includes are resolved into its input hash.
func (r *run) stampsKey() string {
	return reuse.BuildID() + " " + r.opt.ToolVersion + " " + r.cfg.Hash()
}

func (r *run) run(ctx context.Context) (*Result, error) {
	start := time.Now()
	listing, err := corpus.ScanFiltered(r.cfg.Corpus, r.cfg.Filter, formats.All)
	if err != nil {
		return nil, err
	}
	if r.opt.Stamps != "" {
		if !r.opt.Rehash {
			r.stampsIn = reuse.OpenStamps(r.opt.Stamps, r.cfg.Corpus, r.stampsKey())
			defer r.stampsIn.Close()
		}
		if r.stampsOut, err = reuse.CreateStamps(r.opt.Stamps, r.cfg.Corpus, r.stampsKey()); err != nil {
			r.opt.Logger.Warn("stamps not recorded: every file is read again next time", "err", err)
		}
		defer func() { r.stampsOut.Abort() }() // nil once put in place
	}
	if !r.cfg.Shard.Whole() {
		r.part = &artifacts.ShardInfo{Index: r.cfg.Shard.Index, Count: r.cfg.Shard.Count, Run: r.cfg.ShardRun, Listing: listing.Fingerprint(), Listed: len(listing.Docs)}
		h, err := r.hashInputs(ctx, listing.Docs, nil) // every shard's documents: what the merge checks the parts agree on
		if err != nil {
			return nil, err
		}
		r.part.Content = InputFingerprint(h, listing.Skipped)
		r.cfg.Shard = r.cfg.Shard.Of(listing) // before the previous snapshot is opened: its gone documents are sorted by it
		listing = r.cfg.Shard.Select(listing)
	}
	paths, skipped := listing.Docs, listing.Skipped
	r.excluded = listing.Excluded
	r.opt.Logger.Info("run started", "run_id", r.runID, "corpus", r.cfg.Corpus, "documents", len(paths), "excluded", listing.Excluded,
		"skipped", len(skipped), "workers", r.cfg.Workers, "cores", runtime.GOMAXPROCS(0), "llm_concurrency", r.cfg.LLMConcurrency, "embed_concurrency", r.cfg.EmbedConcurrency)
	for _, sk := range skipped {
		msg, ok := map[string]string{
			corpus.SkipNameNotUTF8: "the name is not valid UTF-8 (shown with \uFFFD); rename it to have it ingested",
			corpus.SkipNameControl: "the name holds a control, line separator or bidirectional character (shown escaped); rename it to have it ingested",
			corpus.SkipUnreadable:  "the folder cannot be listed: skipped with what it holds; check its permissions",
		}[sk.Reason]
		if ok {
			severity := schema.SeverityWarning
			if sk.Reason == corpus.SkipUnreadable { // documents may be in it: the snapshot is partial
				severity = schema.SeverityError
			}
			d := schema.Diagnostic{Path: sk.Path, Severity: severity, Code: sk.Reason, Message: msg}
			d.Ignored = r.cfg.Diagnostics.Ignores(d)
			r.setup = append(r.setup, d)
			r.rep.Diagnostic(d)
		}
	}
	if r.part != nil {
		r.part.ListingDiagnostics = len(r.setup)
	}
	if r.stage, err = r.target.Stage(); err != nil {
		return nil, err
	}
	published := false
	defer func() {
		r.prev.Close()
		if !published {
			r.partDocs.Abort()
			r.diags.Abort()
			r.audit.Abort()
			_ = r.stage.Abort()
			if r.journal != nil {
				_ = r.journal.Close() // kept: the next run resumes from it
			}
		}
	}()
	r.openPrevious(ctx)
	r.takeDocuments()
	if r.part != nil {
		r.part.SetupDiagnostics = len(r.setup)
	}
	if r.journal, err = r.openJournal(ctx); err != nil {
		return nil, err
	}
	r.reuse = reuse.NewResolver(r.keys, r.headers, r.embed, r.journal, r.cfg.RetryRejected)
	prevDir := ""
	if r.prev != nil {
		prevDir = r.prev.Dir
	}
	if r.audit, err = audit.New(r.stage.Path(artifacts.AuditFile), r.runID, prevDir); err != nil {
		return nil, err
	}
	var res *Result
	input, same, err := r.unchangedInput(ctx, paths, skipped)
	if err != nil {
		return nil, err
	}
	if same {
		r.opt.Logger.Info("corpus, config, models and build unchanged: republishing the previous snapshot", "previous", r.prev.Dir)
		if res, err = r.republish(start, input); err != nil {
			return nil, err
		}
		if same, err = r.republished(ctx, prevDir); err != nil {
			return nil, err
		}
	}
	if !same {
		if err := r.lazyVectors(ctx); err != nil {
			return nil, err
		}
		if res, err = r.build(ctx, paths, skipped, start); err != nil {
			return nil, err
		}
	}
	pub, err := r.stage.Commit(ctx)
	if pub != nil {
		published = true
		res.Published = *pub
		_ = r.journal.Remove() // published; a stale journal only holds results already in the snapshot
		if serr := r.stampsOut.Close(); serr != nil {
			r.opt.Logger.Warn("stamps not recorded: every file is read again next time", "err", serr)
		}
		r.stampsOut = nil
	}
	return res, err
}

// build runs the corpus through the streams and finishes the snapshot in
// the staging folder.
func (r *run) build(ctx context.Context, paths []string, skipped []schema.Skipped, start time.Time) (*Result, error) {
	var err error
	if r.diags, err = diagnostics.Create(r.stage.Path(artifacts.DiagnosticsFile)); err != nil {
		return nil, err
	}
	if r.partDocs, err = artifacts.CreatePartDocs(r.stage.Path(artifacts.DocumentsFile)); err != nil {
		return nil, err
	}
	if err := r.openWriter(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.errs.cancel = cancel
	t := r.stream(ctx, paths)
	if err := r.errs.get(); err != nil {
		r.writer.Abort()
		return nil, r.stopped(err, t)
	}
	if err := ctx.Err(); err != nil {
		r.writer.Abort()
		return nil, r.stopped(err, t)
	}
	if err := r.strict(t); err != nil {
		r.writer.Abort()
		return nil, err
	}
	if err := r.plausible(t, len(skipped)); err != nil {
		r.writer.Abort()
		return nil, err
	}
	if r.prev != nil {
		gone, err := r.prev.Rest()
		if err != nil {
			r.writer.Abort()
			return nil, err
		}
		r.audit.Supersede("", gone)
	}
	return r.finish(t, skipped, start)
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

// strict fails the run when --strict is on and any error or warning was found.
func (r *run) strict(t tally) error {
	if r.cfg.Strict && t.problems > 0 {
		return fmt.Errorf("%w: %d problems; nothing published", ErrStrict, t.problems)
	}
	return nil
}

// plausible refuses a snapshot that would replace the current one with
// nothing, or with much less: a wrong --corpus must not silently empty what
// consumers read.
func (r *run) plausible(t tally, skipped int) error {
	docs := t.counts.Documents
	if docs == 0 && r.part == nil { // a part may be empty; the merge checks the whole
		return fmt.Errorf("%w: %d documents rejected, %d files skipped in %s; nothing published", ErrNothing, t.counts.Rejected, skipped, r.cfg.Corpus)
	}
	cur := r.target.Current()
	if cur == "" || r.cfg.AllowShrink {
		return nil
	}
	m, err := artifacts.ReadManifest(cur)
	if err != nil {
		return nil // nothing readable to compare with
	}
	before := m.Counts.Documents
	if float64(docs) < float64(before)*(1-r.cfg.Publish.MaxShrink) {
		return fmt.Errorf("%w from %d to %d documents, more than publish.max_shrink (%g) allows; nothing published: check the corpus", ErrShrink, before, docs, r.cfg.Publish.MaxShrink)
	}
	return nil
}

// NewRunID is a new run id: when it started, and 8 random bytes (a run
// and a merge have one each).
func NewRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

func batchMisses(cfg settings.Config, e models.Embedder) int {
	if models.Offline(e) {
		return maxBatchRows
	}
	return cfg.Embed.BatchSize
}
