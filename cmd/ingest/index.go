package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages"
)

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:  "index",
		Usage: "ingest a corpus into a snapshot (chunks.parquet, manifest.json, report.json)",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "corpus", Usage: "corpus folder (Markdown files, walked recursively)"},
			&cli.StringFlag{Name: "out", Usage: "snapshot folder; replaced atomically when the run succeeds"},
			&cli.StringFlag{Name: "publish", Usage: "publish as DIR/<name>/ and move DIR/latest to it when complete (instead of --out)"},
			&cli.IntFlag{Name: "keep", Value: artifacts.DefaultKeep, Usage: "with --publish: snapshots to keep (latest is never removed)"},
			&cli.StringFlag{Name: "config", Usage: "YAML config file (unknown keys are errors); flags override it"},
			&cli.StringFlag{Name: "prev", Usage: "snapshot to reuse headers and vectors from (default: the one at --out)"},
			&cli.IntFlag{Name: "workers", HideDefault: true, Usage: "parallel workers (default: one per core)"},
			&cli.BoolFlag{Name: "strict", Usage: "any error or warning fails the run; nothing is published"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only errors and the summaries"},
			&cli.BoolFlag{Name: "verbose", Usage: "print every diagnostic (by default the first 20, then a count per code)"},
			&cli.StringFlag{Name: "diagnostics-format", Value: "text", Usage: "text (path:line: severity: message [code]) or github (GitHub Actions annotations)", Validator: func(s string) error {
				if s != "text" && s != "github" {
					return fmt.Errorf("--diagnostics-format %q: want text or github", s)
				}
				return nil
			}},
			&cli.BoolFlag{Name: "plan", Usage: "dry run: count documents, chunks, model and embedding calls, then stop"},
			&cli.BoolFlag{Name: "allow-shrink", Usage: "publish even when the corpus lost more than publish.max_shrink of the previous snapshot's documents"},
			&cli.DurationFlag{Name: "wait", HideDefault: true, Usage: "wait up to this long for another run of the same --out or --publish to finish (default: fail at once)"},
		}, backendFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			f, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			cfg := f.Run
			applyRunFlags(cmd, &cfg)
			out, prev, publish := f.Out, f.Prev, cmd.String("publish")
			if cmd.IsSet("out") {
				out = cmd.String("out")
			}
			if cmd.IsSet("prev") {
				prev = cmd.String("prev")
			}
			if publish != "" && cmd.IsSet("out") {
				return usage("--publish and --out are exclusive: a published snapshot's folder is named for its content")
			}
			if publish != "" {
				out = ""
			}
			if cfg.Corpus == "" || out == "" && publish == "" {
				return usage("index needs --corpus and --out or --publish (or corpus: and out: in the config)")
			}
			if err := cfg.Validate(); err != nil {
				return settingsError(err)
			}
			if cmd.Bool("plan") {
				return plan(ctx, cmd, cfg)
			}
			target := artifacts.OutTarget(out, prev)
			if publish != "" {
				target = artifacts.PublishTarget(publish, cmd.Int("keep"), prev)
			}
			if err := target.Check(cfg.Corpus); err != nil {
				return targetError(err)
			}
			bc := backendConfig(cmd, cfg)
			bc.PrevDims = previousDims(target)
			headers, embedder, err := models.OpenBackends(ctx, bc)
			if err != nil {
				return settingsError(err)
			}
			cfg.Embed.Dims = embedder.Dims()
			errw := cmd.Root().ErrWriter
			verbosity := ""
			switch {
			case cmd.Bool("verbose"):
				verbosity = "verbose"
			case cmd.Bool("quiet"):
				verbosity = "quiet"
			}
			rep := newReporter(errw, cmd.Bool("quiet"), newDiagnostics(errw, verbosity, cmd.String("diagnostics-format")))
			res, err := stages.Run(ctx, cfg, target, stages.Options{Reporter: rep, ToolVersion: version, Headers: headers, Embedder: embedder, LockWait: cmd.Duration("wait")})
			rep.done()
			switch {
			case errors.Is(err, artifacts.ErrPrune):
				fmt.Fprintf(errw, "warning: %v\n", err)
			case errors.Is(err, stages.ErrStrict):
				return err
			case errors.Is(err, stages.ErrShrink):
				return fmt.Errorf("index: %w; to accept it, run again with --allow-shrink", err)
			case err != nil:
				return fmt.Errorf("index: %w", targetError(settingsError(err)))
			}
			for _, c := range res.Cleaned {
				fmt.Fprintf(errw, "removed %s, left by an interrupted run\n", c)
			}
			if publish != "" {
				note := ""
				if res.Published.Reused {
					note = " (identical to a snapshot already there)"
				}
				fmt.Fprintf(errw, "latest → %s%s\n", res.Published.Path, note)
			}
			printSummary(errw, res)
			if res.Status == stages.StatusPartial {
				return errPartial
			}
			return nil
		},
	}
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
	if cmd.IsSet("allow-shrink") {
		cfg.AllowShrink = cmd.Bool("allow-shrink")
	}
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

func printSummary(w io.Writer, res *stages.Result) {
	m := res.Manifest
	out := res.Published.Path
	fmt.Fprintf(w, "published %s: %d documents (%d rejected, %d files skipped), %d chunks in %.2fs\n",
		out, m.Counts.Documents, m.Counts.Rejected, m.Counts.Skipped, m.Counts.Chunks, res.Report.Seconds)
	fmt.Fprintf(w, "  by kind:     %s\n", formatCounts(m.Counts.ByKind))
	fmt.Fprintf(w, "  by lang:     %s\n", formatCounts(m.Counts.ByLang))
	fmt.Fprintf(w, "  by element:  %s\n", formatCounts(m.Counts.ByElement))
	fmt.Fprintf(w, "  diagnostics: %d errors, %d warnings, %d info\n", m.Diagnostics["error"], m.Diagnostics["warning"], m.Diagnostics["info"])
	fmt.Fprintf(w, "  embedder:    %s (%d dims); headers: %s; status: %s\n", m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, res.Status)
	c := m.Calls
	fmt.Fprintf(w, "  work:        %d header calls, %d embedding calls; reused %d headers and %d vectors (%d from a resumed journal); %d chunks superseded\n",
		c.HeaderCalls, c.EmbedCalls, c.HeadersReused, c.VectorsReused, c.FromJournal, c.Superseded)
}

func formatCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// plan prints what a run would do, without doing it.
func plan(ctx context.Context, cmd *cli.Command, cfg stages.Config) error {
	p, err := stages.Plan(ctx, cfg)
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	for _, d := range p.Diagnostics {
		fmt.Fprintln(cmd.Root().ErrWriter, d.String())
	}
	fmt.Fprintf(cmd.Root().Writer, "plan: %d documents (%d rejected, %.1f MB), %d chunks; %d header calls to a model (table rows never go to one), %d embedding calls of up to %d texts; read in %.2fs\n",
		p.Documents, p.Rejected, float64(p.Bytes)/1e6, p.Chunks, p.HeaderCalls, p.EmbeddingCalls, cfg.Embed.BatchSize, p.Seconds)
	return nil
}

// previousDims is the vector width of the snapshot a run will reuse from (0
// when there is none): a model of another width is refused at start.
func previousDims(t artifacts.Target) int {
	if t.Previous() == "" {
		return 0
	}
	m, err := artifacts.ReadManifest(t.Previous())
	if err != nil {
		return 0
	}
	return m.Embedder.Dims
}
