package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/bucket"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages"
)

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "ingest a corpus into a snapshot (chunks.parquet, manifest.json, report.json)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "corpus", Sources: cli.EnvVars("INGEST_CORPUS"), Usage: "corpus folder (Markdown files, walked recursively)"},
			&cli.StringFlag{Name: "out", Sources: cli.EnvVars("INGEST_OUT"), Usage: "snapshot folder; replaced atomically when the run succeeds"},
			&cli.StringFlag{Name: "publish", Sources: cli.EnvVars("INGEST_PUBLISH"), Usage: "publish as DIR/<name>/ and move DIR/latest to it when complete (instead of --out); a bucket URL (s3://, gs://, azblob://, file://) publishes there"},
			&cli.IntFlag{Name: "keep", Value: artifacts.DefaultKeep, Usage: "with --publish: snapshots to keep (latest is never removed)"},
			&cli.StringFlag{Name: "config", Sources: cli.EnvVars("INGEST_CONFIG"), Usage: "YAML config file (unknown keys are errors); flags override it"},
			&cli.StringFlag{Name: "prev", Sources: cli.EnvVars("INGEST_PREV"), Usage: "snapshot to reuse headers and vectors from (default: the one at --out)"},
			&cli.IntFlag{Name: "workers", Sources: cli.EnvVars("INGEST_WORKERS"), HideDefault: true, Usage: "parallel workers (default: one per core)"},
			&cli.BoolFlag{Name: "strict", Usage: "any error or warning not ignored fails the run; nothing is published"},
			&cli.StringSliceFlag{Name: "ignore", Usage: "accept the warnings and info of this code (repeat, or a comma list): still in report.json, not printed, not failing --strict; adds to the config's diagnostics.ignore"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only errors and the summaries"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print every diagnostic (by default the first 20, then a count per code)"},
			&cli.StringFlag{Name: "diagnostics-format", Value: "text", Usage: "text (path:line: severity: message [code]) or github (GitHub Actions annotations)", Validator: func(s string) error {
				if s != "text" && s != "github" {
					return fmt.Errorf("--diagnostics-format %q: want text or github", s)
				}
				return nil
			}},
			&cli.BoolFlag{Name: "plan", Usage: "dry run: count documents, chunks, model and embedding calls, then stop"},
			&cli.BoolFlag{Name: "allow-shrink", Usage: "publish even when the corpus lost more than publish.max_shrink of the previous snapshot's documents"},
			&cli.BoolFlag{Name: "retry-rejected", Usage: "ask the model again for the chunks whose answer the previous snapshot rejected (by default an unchanged chunk's rejected answer is reused, as any answer is)"},
			&cli.BoolFlag{Name: "diff", Usage: "with --publish: write <name>.diff.md and .diff.json beside the new snapshot, against the one latest pointed at before"},
			&cli.DurationFlag{Name: "wait", HideDefault: true, Usage: "wait up to this long for another run of the same --out or --publish to finish (default: fail at once)"},
			&cli.StringFlag{Name: "shard", Sources: cli.EnvVars("INGEST_SHARD"), Usage: "run shard K of N (K/N, from 0) into a part at --out/--publish DIR/shard-K-of-N, for ingest merge"},
			&cli.IntFlag{Name: "shards", Sources: cli.EnvVars("INGEST_SHARDS"), HideDefault: true, Usage: "run one of N shards, K read from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)"},
			&cli.StringFlag{Name: "run-id", Sources: cli.EnvVars("INGEST_RUN_ID"), Usage: "with --shard: the sharded run's name (a Job's, a CI run's), recorded in the part; merge refuses parts of different runs"},
			jsonFlag("the run's outcome as JSON: {status, exit_code, error, snapshot, counts, calls, diagnostics, seconds, stages}"),
		}, append(backendFlags(), logFlags()...)...),
		Action: indexAction,
	}
}

// indexAction runs index and prints its outcome: the human summary on
// stderr, or with --json one JSON document on stdout, for success and
// failure alike.
func indexAction(ctx context.Context, cmd *cli.Command) error {
	rep := newIndexReporter(cmd)
	res, publish, err := runIndex(ctx, cmd, rep)
	if rep != nil {
		rep.done()
	}
	switch {
	case errors.Is(err, artifacts.ErrPrune):
		say(cmd, slog.LevelWarn, fmt.Sprintf("warning: %v", err), "prune failed", "error", err.Error())
		err = nil
	case errors.Is(err, stages.ErrShrink):
		err = fmt.Errorf("index: %w; to accept it, run again with --allow-shrink", err)
	case err != nil && !errors.Is(err, stages.ErrStrict) && !errors.As(err, new(usageError)):
		err = fmt.Errorf("index: %w", targetError(settingsError(err)))
	}
	if err == nil && res != nil && res.Status == stages.StatusPartial {
		err = errPartial
	}
	if res != nil && publish != "" && cmd.Bool("diff") {
		diffReport(ctx, cmd, publish, res.Published)
	}
	if cmd.Bool("json") && !cmd.Bool("plan") {
		if werr := writeJSON(cmd.Root().Writer, newRunSummary(ctx, res, err)); werr != nil {
			return werr
		}
		return err
	}
	if res != nil {
		for _, c := range res.Cleaned {
			say(cmd, slog.LevelInfo, fmt.Sprintf("removed %s, left by an interrupted run", c), "removed a leftover of an interrupted run", "path", c)
		}
		if publish != "" {
			printQuarantined(cmd, res.Published)
			note := ""
			if res.Published.Reused {
				note = " (identical to a snapshot already there, which verifies)"
			}
			say(cmd, slog.LevelInfo, fmt.Sprintf("latest → %s%s", res.Published.Path, note), "latest moved", "path", res.Published.Path, "reused", res.Published.Reused)
		}
		summarise(ctx, cmd, res, err)
		noteUnmatchedIgnores(cmd, cmd.StringSlice("ignore"), res.Report.Diagnostics)
	}
	return err
}

// summarise tells the run's outcome on stderr: the summary a person reads,
// or with --log-format json one record holding what --json prints.
func summarise(ctx context.Context, cmd *cli.Command, res *stages.Result, err error) {
	if jsonLogs(cmd) {
		s := newRunSummary(ctx, res, err)
		records(cmd.Root().ErrWriter).Info("run summary", "status", s.Status, "exit_code", s.ExitCode, "summary", s)
		return
	}
	printSummary(cmd.Root().ErrWriter, res)
}

// newIndexReporter is the progress and diagnostics display of a run, or
// nil for --plan, which prints its own.
func newIndexReporter(cmd *cli.Command) *reporter {
	if cmd.Bool("plan") {
		return nil
	}
	errw := cmd.Root().ErrWriter
	verbosity := ""
	switch {
	case cmd.Bool("verbose"):
		verbosity = "verbose"
	case cmd.Bool("quiet"):
		verbosity = "quiet"
	}
	mode, format := progressMode(errw, cmd.Bool("quiet") || cmd.Bool("json")), cmd.String("diagnostics-format")
	if jsonLogs(cmd) {
		format = "json"
		if mode != "quiet" {
			mode = "json"
		}
	}
	return newReporter(errw, mode, cmd.String("llm") != "none", newDiagnostics(errw, verbosity, format))
}

// runIndex turns the flags and the config file into a run and runs it (or
// its plan).
func runIndex(ctx context.Context, cmd *cli.Command, rep *reporter) (*stages.Result, string, error) {
	f, err := loadConfig(cmd)
	if err != nil {
		return nil, "", err
	}
	cfg := f.Run
	applyRunFlags(cmd, &cfg)
	perEndpointConcurrency(cmd, &cfg)
	out, prev, publish := f.Out, f.Prev, cmd.String("publish")
	if cmd.IsSet("out") {
		out = cmd.String("out")
	}
	if cmd.IsSet("prev") {
		prev = cmd.String("prev")
	}
	if publish != "" && cmd.IsSet("out") {
		return nil, "", usage("--publish and --out are exclusive: a published snapshot's folder is named for its content")
	}
	if publish != "" {
		out = ""
	}
	if cfg.Corpus == "" || out == "" && publish == "" {
		return nil, "", usage("index needs --corpus and --out or --publish (or corpus: and out: in the config)")
	}
	if cfg.Shard, err = shardFlags(cmd); err != nil {
		return nil, "", err
	}
	cfg.ShardRun = cmd.String("run-id")
	if !cfg.Shard.Whole() { // the part goes to its own folder under the parts' place
		for _, place := range []string{out, publish} {
			if err := checkPartsPlace(place); err != nil {
				return nil, "", err
			}
		}
		out, publish = partPlace(out, cfg.Shard), partPlace(publish, cfg.Shard)
	}
	if err := cfg.Validate(); err != nil {
		return nil, "", settingsError(err)
	}
	if prev != "" {
		dir, cleanup, err := localSnapshot(ctx, prev) // --prev may be a published snapshot's URL
		switch {
		case errors.Is(err, errNothingPublished):
			// The first night of a deployment that names where it will
			// publish: nothing to reuse yet, as on any first run.
			say(cmd, slog.LevelInfo, fmt.Sprintf("note: --prev %s: %v; nothing to reuse", redact.URL(prev), err), "nothing to reuse",
				"prev", redact.URL(prev), "reason", err.Error())
			dir = ""
		case errors.Is(err, artifacts.ErrLatestBroken):
			// As a previous snapshot that fails its checks: reported, not
			// reused, and no reason to stop a run that can repair it.
			say(cmd, slog.LevelWarn, fmt.Sprintf("warning: --prev %s: %v; nothing to reuse", redact.URL(prev), err), "nothing to reuse",
				"prev", redact.URL(prev), "reason", err.Error())
			dir = ""
		case err != nil:
			return nil, "", err
		}
		defer cleanup()
		prev = dir
	}
	target := artifacts.OutTarget(out, prev)
	if publish != "" {
		var closeTarget func()
		if target, closeTarget, err = publishTarget(ctx, publish, cmd.Int("keep"), prev); err != nil {
			return nil, "", err
		}
		defer closeTarget()
	}
	if err := target.Check(cfg.Corpus); err != nil {
		return nil, "", targetError(err)
	}
	logger := newLogger(cmd, rep)
	bc := backendConfig(cmd, cfg)
	bc.Logger = logger
	bc.PrevDims, bc.PrevDigests = previousModels(ctx, target)
	headers, embedder, err := models.OpenBackends(ctx, bc)
	if err != nil {
		return nil, "", settingsError(err)
	}
	cfg.Embed.Dims = embedder.Dims()
	if cfg.Workers > 0 && cfg.Workers < runtime.GOMAXPROCS(0) {
		// --workers N is N cores' worth: the runner's streams, the
		// collector and the Parquet writer share them, so a CI job told
		// to use one core uses one.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cfg.Workers)) // as it was, once the run is done
	}
	opts := stages.Options{ToolVersion: buildVersion(), Headers: headers, Embedder: embedder, LockWait: cmd.Duration("wait"), Logger: logger}
	if cmd.Bool("plan") {
		return nil, "", plan(ctx, cmd, cfg, target, opts)
	}
	opts.Reporter = rep
	res, err := stages.Run(ctx, cfg, target, opts)
	return res, publish, err
}

// applyRunFlags applies the run flags that are set over the config file's
// values: a flag left out never overrides the file.
func applyRunFlags(cmd *cli.Command, cfg *stages.Config) {
	if cmd.IsSet("corpus") {
		cfg.Corpus = cmd.String("corpus")
	}
	if cmd.IsSet("workers") {
		cfg.Workers = cmd.Int("workers")
	}
	if cmd.IsSet("strict") {
		cfg.Strict = cmd.Bool("strict")
	}
	if cmd.IsSet("llm-concurrency") {
		cfg.LLMConcurrency = cmd.Int("llm-concurrency")
	}
	if cmd.IsSet("embed-concurrency") {
		cfg.EmbedConcurrency = cmd.Int("embed-concurrency")
	}
	if cmd.IsSet("ignore") {
		cfg.Diagnostics.Ignore = append(slices.Clone(cfg.Diagnostics.Ignore), cmd.StringSlice("ignore")...)
	}
	if cmd.IsSet("allow-shrink") {
		cfg.AllowShrink = cmd.Bool("allow-shrink")
	}
	cfg.RetryRejected = cmd.Bool("retry-rejected")
}

// targetError turns a target the tool refuses to write, or one another run
// holds, into a usage error naming the flag.
func targetError(err error) error {
	var no *artifacts.NotOwnedError
	var locked *artifacts.LockedError
	switch {
	case errors.As(err, &no):
		return usageError{fmt.Errorf("--%s %s", no.Key, no.Error())}
	case errors.As(err, &locked):
		return usageError{fmt.Errorf("%w; wait for it, or pass --wait DURATION", locked)}
	}
	return err
}

// plan prints what a run would do, without doing it.
func plan(ctx context.Context, cmd *cli.Command, cfg stages.Config, target artifacts.Target, opts stages.Options) error {
	p, err := stages.Plan(ctx, cfg, target, opts)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, p)
	}
	format := cmd.String("diagnostics-format")
	if jsonLogs(cmd) {
		format = "json"
	}
	d := newDiagnostics(cmd.Root().ErrWriter, "", format)
	for _, x := range p.Diagnostics {
		d.add(x)
	}
	d.summary()
	w := cmd.Root().Writer
	fmt.Fprintf(w, "plan: %s (%d rejected, %.1f MB), %s\n", plural(p.Documents, "document"), p.Rejected, float64(p.Bytes)/1e6, plural(p.Chunks, "chunk"))
	fmt.Fprintf(w, "  headers: %s (%s reused); embeddings: %s of up to %d texts (%s reused)\n",
		plural(p.HeaderCalls, "model call"), plural(p.HeadersReused, "header"), plural(p.EmbeddingCalls, "call"), cfg.Embed.BatchSize, plural(p.VectorsReused, "vector"))
	if p.Previous != "" {
		fmt.Fprintf(w, "  reusing from %s\n", p.Previous)
	}
	fmt.Fprintf(w, "  read in %.2fs\n", p.Seconds)
	return nil
}

// previousModels is the vector width and the model digests of the snapshot
// a run will reuse from (0 and nil when there is none): a model of another
// width is refused at start, and with several servers the previous digest
// is the one the run keeps.
func previousModels(ctx context.Context, t artifacts.Target) (int, map[string]string) {
	if t.Remote != nil && t.Prev == "" {
		var err error
		if t, err = t.Resolve(ctx); err != nil {
			return 0, nil
		}
	}
	if t.Previous() == "" {
		return 0, nil
	}
	m, err := artifacts.ReadManifest(t.Previous())
	if err != nil {
		return 0, nil
	}
	return m.Embedder.Dims, models.PrevDigests(m.HeaderWriter, m.Embedder.Name)
}

// shardFlags reads --shard K/N, or --shards N with K from
// JOB_COMPLETION_INDEX (Kubernetes numbers an Indexed Job's pods from 0).
func shardFlags(cmd *cli.Command) (corpus.Shard, error) {
	spec, n := cmd.String("shard"), cmd.Int("shards")
	switch {
	case spec != "" && n != 0:
		sh, err := corpus.ParseShard(spec)
		if err == nil && sh.Count != n {
			err = fmt.Errorf("--shard %s and --shards %d disagree", spec, n)
		}
		if err != nil {
			return sh, usage("%v", err)
		}
		return sh, nil
	case spec != "":
		sh, err := corpus.ParseShard(spec)
		if err != nil {
			return sh, usage("--shard %v", err)
		}
		return sh, nil
	case n != 0:
		k, ok := os.LookupEnv("JOB_COMPLETION_INDEX")
		if !ok {
			return corpus.Shard{}, usage("--shards %d needs --shard K/%d or JOB_COMPLETION_INDEX (set in a Kubernetes Indexed Job's pods)", n, n)
		}
		sh, err := corpus.ParseShard(k + "/" + strconv.Itoa(n))
		if err != nil {
			return sh, usage("JOB_COMPLETION_INDEX=%s with --shards %d: %v", k, n, err)
		}
		return sh, nil
	}
	return corpus.Shard{}, nil
}

// partPlace is where a shard's part goes under the parts' place (a folder
// or a bucket URL): place/shard-K-of-N.
func partPlace(place string, sh corpus.Shard) string {
	if place == "" {
		return ""
	}
	return joinPlace(place, sh.Name())
}

// checkPartsPlace refuses a parts' place that is itself a snapshot or a
// publish folder: the parts would be written inside what consumers read.
func checkPartsPlace(place string) error {
	if place == "" || bucket.IsURL(place) {
		return nil // a bucket prefix: the parts' own prefixes are checked like any publish target
	}
	for _, name := range []string{artifacts.ManifestFile, artifacts.LatestLink} {
		if _, err := os.Lstat(filepath.Join(place, name)); err == nil {
			return usage("%s holds a snapshot (%s): with --shard, --out and --publish name the folder parts go under (as %s/shard-K-of-N); give one of its own", place, name, place)
		}
	}
	// Parts go only where parts are: a new or empty folder, or one holding
	// shard-K-of-N folders and what their runs keep beside them.
	entries, err := os.ReadDir(place)
	if err != nil {
		return nil // absent (made on write), or refused with its own error later
	}
	for _, e := range entries {
		if !partEntry.MatchString(e.Name()) {
			return usage("%s holds %s, not only parts: with --shard, --out and --publish name a folder for the parts alone (as %s/shard-K-of-N)", place, e.Name(), place)
		}
	}
	return nil
}

// partEntry is what a parts folder holds: shard-K-of-N folders, their
// staging folders and their state.
var partEntry = regexp.MustCompile(`^\.?shard-\d+-of-\d+(?:$|[.-])`)
