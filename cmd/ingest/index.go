package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
)

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "ingest a corpus into a snapshot (chunks.parquet, manifest.json, report.json)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "corpus", Sources: cli.EnvVars("INGEST_CORPUS"), Usage: "corpus folder (Markdown files, walked recursively)"},
			&cli.StringFlag{Name: "out", Sources: cli.EnvVars("INGEST_OUT"), Usage: "snapshot folder; replaced atomically when the run succeeds"},
			&cli.StringFlag{Name: "publish", Sources: cli.EnvVars("INGEST_PUBLISH"), Usage: "publish as DIR/<name>/ and move DIR/latest to it when complete (instead of --out); a bucket URL (s3://, gs://, azblob://, file://) publishes there"},
			&cli.IntFlag{Name: "keep", Value: publish.DefaultKeep, Usage: "with --publish: snapshots to keep (latest is never removed)"},
			&cli.StringFlag{Name: "config", Sources: cli.EnvVars("INGEST_CONFIG"), Usage: "YAML config file (unknown keys are errors); flags override it"},
			&cli.StringFlag{Name: "prev", Sources: cli.EnvVars("INGEST_PREV"), Usage: "snapshot to reuse headers and vectors from (default: the one at --out)"},
			&cli.IntFlag{Name: "workers", Sources: cli.EnvVars("INGEST_WORKERS"), HideDefault: true, Usage: "parallel workers (default: one per core)"},
			&cli.BoolFlag{Name: "strict", Usage: "any error or warning not ignored fails the run; nothing is published"},
			&cli.StringSliceFlag{Name: "ignore", Usage: "accept the warnings and info of this code (repeat, or a comma list): still in diagnostics.jsonl, not printed, not failing --strict; adds to the config's diagnostics.ignore"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only errors and the summaries"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print every diagnostic (by default the first 20, then a count per code)"},
			&cli.StringFlag{Name: "diagnostics-format", Value: "text", Usage: "text (path:line: severity: message [code]) or github (GitHub Actions annotations)", Validator: func(s string) error {
				if s != "text" && s != "github" {
					return fmt.Errorf("--diagnostics-format %q: want text or github", s)
				}
				return nil
			}},
			&cli.BoolFlag{Name: "plan", Usage: "dry run: count documents, chunks, model and embedding calls and their tokens, then stop"},
			&cli.StringFlag{Name: "plan-rate", Usage: "with --plan: estimate the time at PREFILL[,DECODE[,EMBED]] tokens a second, one call at a time a server (EMBED: the embedder's; default PREFILL)"},
			&cli.BoolFlag{Name: "probe", Usage: "with --plan: measure the rates by one warm-up call to each model server"},
			&cli.BoolFlag{Name: "allow-shrink", Usage: "publish even when the corpus lost more than publish.max_shrink of the previous snapshot's documents"},
			&cli.BoolFlag{Name: "rehash", Usage: "read and hash every file, even those whose size, times and inode are as a run here last hashed them (the stamps kept in the user's cache folder, $INGEST_CACHE_DIR)"},
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
	f, err := loadConfig(ctx, cmd)
	if err != nil {
		return finish(ctx, cmd, "index", nil, "", err)
	}
	m := modelSettings(cmd, f)
	rep := newIndexReporter(cmd, m)
	res, pubDir, err := runIndex(ctx, cmd, f, m, rep)
	if rep != nil {
		rep.Done()
	}
	return finish(ctx, cmd, "index", res, pubDir, err)
}

// newIndexReporter is the progress and diagnostics display of a run, or
// nil for --plan, which prints its own.
func newIndexReporter(cmd *cli.Command, m config.Models) *console.Reporter {
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
	return console.NewReporter(errw, mode, m.LLM != "none", console.NewDiagnostics(errw, verbosity, format))
}

// runIndex turns the flags and the config file into a run and runs it (or
// its plan).
func runIndex(ctx context.Context, cmd *cli.Command, f config.File, m config.Models, rep *console.Reporter) (*stages.Result, string, error) {
	cfg := runConfig(cmd, f, m)
	var err error
	spec := place.Spec{Out: f.Out, Prev: f.Prev, Publish: cmd.String("publish"), Keep: cmd.Int("keep"), Work: work()}
	if cmd.IsSet("out") {
		spec.Out = cmd.String("out")
	}
	if cmd.IsSet("prev") {
		spec.Prev = cmd.String("prev")
	}
	if spec.Publish != "" && cmd.IsSet("out") {
		return nil, "", usage("--publish and --out are exclusive: a published snapshot's folder is named for its content")
	}
	if spec.Publish != "" {
		spec.Out = ""
	}
	if cfg.Corpus == "" || spec.Out == "" && spec.Publish == "" && !cmd.Bool("plan") {
		return nil, "", usage("index needs --corpus and --out or --publish (or corpus: and out: in the config)")
	}
	if spec.Out == "" && spec.Publish == "" { // a plan of a first run: nothing to reuse, nothing written
		dir, err := os.MkdirTemp("", "ingest-plan-")
		if err != nil {
			return nil, "", err
		}
		defer os.RemoveAll(dir)
		spec.Out = filepath.Join(dir, "snapshot")
	}
	if cfg.Shard, err = shardFlags(cmd); err != nil {
		return nil, "", err
	}
	cfg.ShardRun, spec.Shard = cmd.String("run-id"), cfg.Shard
	eff := f
	eff.Run, eff.Models = cfg, m
	if err := checkSettings(cmd, eff); err != nil {
		return nil, "", err
	}
	if spec.Prev != "" {
		dir, cleanup, none, err := place.Previous(ctx, spec.Prev)
		if err != nil {
			return nil, "", err
		}
		defer cleanup()
		if none != nil { // a note, or a warning when latest is broken
			tell(cmd).NothingToReuse(spec.Prev, none, !errors.Is(none, place.ErrNothingPublished))
		}
		spec.Prev = dir
	}
	target, closeTarget, err := place.Target(ctx, spec)
	if err != nil {
		return nil, "", placeError(err)
	}
	defer closeTarget()
	logger := newLogger(cmd, rep)
	defer stages.LimitProcs(cfg.Workers)() // --workers N is N cores' worth
	opts := stages.Options{ToolVersion: buildVersion(), OpenModels: modelOpener(m, cfg, logger, cmd.Bool("plan") && !cmd.Bool("probe")), LockWait: cmd.Duration("wait"), Logger: logger,
		RelevanceFloor: search.ManifestFloor, Stamps: stampsFile(cfg.Corpus), Rehash: cmd.Bool("rehash")}
	if cmd.Bool("plan") {
		return nil, "", plan(ctx, cmd, cfg, m, target, opts)
	}
	opts.Reporter = rep
	res, err := stages.Run(ctx, cfg, target, opts)
	return res, spec.PublishPlace(), err
}

// runConfig is the run's config: the file's (or the defaults), the flags
// that are set over it, and the calls in flight left to their defaults
// scaled to the model servers the flags name (settings.Config.PerServer). A
// setting counts as chosen when the file has its key or its flag was
// given, whatever its value.
func runConfig(cmd *cli.Command, f config.File, m config.Models) settings.Config {
	cfg := f.Run
	applyRunFlags(cmd, &cfg)
	cfg.PerServer(backendConfig(m, cfg), func(key string) bool {
		return f.IsSet(key) || cmd.IsSet(strings.ReplaceAll(key, "_", "-"))
	})
	return cfg
}

// applyRunFlags applies the run flags that are set over the config file's
// values: a flag left out never overrides the file.
func applyRunFlags(cmd *cli.Command, cfg *settings.Config) {
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
	var no *publish.NotOwnedError
	var locked *publish.LockedError
	switch {
	case errors.As(err, &no):
		return usageError{fmt.Errorf("--%s %s", no.Key, no.Error())}
	case errors.As(err, &locked):
		return usageError{fmt.Errorf("%w; wait for it, or pass --wait DURATION", locked)}
	}
	return err
}

// plan prints what a run would do, without doing it.
func plan(ctx context.Context, cmd *cli.Command, cfg settings.Config, m config.Models, target publish.Target, opts stages.Options) error {
	p, err := stages.Plan(ctx, cfg, target, opts)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	if err := planRates(ctx, cmd, m, p); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	if cmd.Bool("json") {
		return console.WriteJSON(cmd.Root().Writer, p)
	}
	format := cmd.String("diagnostics-format")
	if jsonLogs(cmd) {
		format = "json"
	}
	console.PrintDiagnostics(cmd.Root().ErrWriter, format, p.Diagnostics)
	console.PrintPlan(cmd.Root().Writer, p, cfg.Embed.BatchSize)
	return nil
}

// shardFlags reads --shard K/N, or --shards N with K from
// JOB_COMPLETION_INDEX (Kubernetes numbers an Indexed Job's pods from 0).
func shardFlags(cmd *cli.Command) (shard.Shard, error) {
	spec, n := cmd.String("shard"), cmd.Int("shards")
	switch {
	case spec != "" && n != 0:
		sh, err := shard.Parse(spec)
		if err == nil && sh.Count != n {
			err = fmt.Errorf("--shard %s and --shards %d disagree", spec, n)
		}
		if err != nil {
			return sh, usage("%v", err)
		}
		return sh, nil
	case spec != "":
		sh, err := shard.Parse(spec)
		if err != nil {
			return sh, usage("--shard %v", err)
		}
		return sh, nil
	case n != 0:
		k, ok := os.LookupEnv("JOB_COMPLETION_INDEX")
		if !ok {
			return shard.Shard{}, usage("--shards %d needs --shard K/%d or JOB_COMPLETION_INDEX (set in a Kubernetes Indexed Job's pods)", n, n)
		}
		sh, err := shard.Parse(k + "/" + strconv.Itoa(n))
		if err != nil {
			return sh, usage("JOB_COMPLETION_INDEX=%s with --shards %d: %v", k, n, err)
		}
		return sh, nil
	}
	return shard.Shard{}, nil
}
