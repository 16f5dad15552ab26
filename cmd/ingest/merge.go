package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/merge"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Usage:     "assemble the parts of a sharded run (index --shard K/N) into one snapshot, as one run would make it",
		ArgsUsage: "[PART...]",
		Description: "Each PART is a part snapshot: a folder, a folder a part was published to, or URL/latest.\n" +
			"--parts DIR --shards N names them all at once: DIR/shard-K-of-N for K from 0 to N-1.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "parts", Sources: cli.EnvVars("INGEST_PARTS"), Usage: "the folder or bucket URL the shards wrote their parts under (with --shards)"},
			&cli.IntFlag{Name: "shards", Sources: cli.EnvVars("INGEST_SHARDS"), HideDefault: true, Usage: "how many shards the run had (with --parts)"},
			&cli.StringFlag{Name: "run-id", Sources: cli.EnvVars("INGEST_RUN_ID"), Usage: "the sharded run every part must belong to (index --run-id)"},
			&cli.StringFlag{Name: "out", Sources: cli.EnvVars("INGEST_OUT"), Usage: "snapshot folder; replaced atomically when the merge succeeds"},
			&cli.StringFlag{Name: "publish", Sources: cli.EnvVars("INGEST_PUBLISH"), Usage: "publish as DIR/<name>/ (or to a bucket URL) and move latest to it (instead of --out)"},
			&cli.IntFlag{Name: "keep", Value: publish.DefaultKeep, Usage: "with --publish: snapshots to keep (latest is never removed)"},
			&cli.StringFlag{Name: "config", Sources: cli.EnvVars("INGEST_CONFIG"), Usage: "YAML config file, for publish.max_shrink"},
			&cli.BoolFlag{Name: "allow-shrink", Usage: "publish even when the corpus lost more than publish.max_shrink of the current snapshot's documents"},
			&cli.BoolFlag{Name: "diff", Usage: "with --publish: write <name>.diff.md and .diff.json beside the new snapshot, against the one latest pointed at before"},
			&cli.BoolFlag{Name: "remove-parts", Usage: "with --parts: once the merged snapshot is published and verified, remove the parts (each shard-K-of-N, and the --parts folder if that leaves it empty)"},
			&cli.DurationFlag{Name: "wait", HideDefault: true, Usage: "wait up to this long for another run of the same --out or --publish to finish (default: fail at once)"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only errors and the summary"},
			jsonFlag("the merge's outcome as JSON, as index --json prints a run's"),
		}, logFlags()...),
		Action: mergeAction,
	}
}

func mergeAction(ctx context.Context, cmd *cli.Command) error {
	res, pubDir, err := runMerge(ctx, cmd)
	return finish(ctx, cmd, "merge", res, pubDir, err)
}

func runMerge(ctx context.Context, cmd *cli.Command) (*stages.Result, string, error) {
	f, err := loadConfig(ctx, cmd)
	if err != nil {
		return nil, "", err
	}
	if err := f.Run.Publish.Validate(); err != nil { // before any part is fetched
		return nil, "", settingsError(err)
	}
	out, pubDir := f.Out, cmd.String("publish")
	if cmd.IsSet("out") {
		out = cmd.String("out")
	}
	switch {
	case pubDir != "" && cmd.IsSet("out"):
		return nil, "", usage("--publish and --out are exclusive")
	case pubDir != "":
		out = ""
	case out == "":
		return nil, "", usage("merge needs --out or --publish")
	}
	args, err := partArgs(cmd)
	if err != nil {
		return nil, "", err
	}
	if cmd.Bool("remove-parts") && cmd.String("parts") == "" {
		return nil, "", usage("--remove-parts removes what --parts DIR --shards N names; give the parts that way")
	}
	dirs, cleanup, err := place.PartDirs(ctx, args)
	if err != nil {
		return nil, "", usageError{err}
	}
	defer cleanup()
	target, closeTarget, err := place.Target(ctx, place.Spec{Out: out, Publish: pubDir, Keep: cmd.Int("keep"), Work: work()})
	if err != nil {
		return nil, "", placeError(err)
	}
	defer closeTarget()
	mc := merge.Config{Publish: f.Run.Publish, AllowShrink: cmd.Bool("allow-shrink"), Run: cmd.String("run-id")}
	opts := stages.Options{LockWait: cmd.Duration("wait"), Logger: newLogger(cmd, nil)}
	res, err := merge.Merge(ctx, dirs, mc, target, opts)
	return res, pubDir, err
}

// partArgs are the parts named: the arguments, or with --parts DIR
// --shards N, DIR/shard-K-of-N for every K.
func partArgs(cmd *cli.Command) ([]string, error) {
	args := cmd.Args().Slice()
	root, n := cmd.String("parts"), cmd.Int("shards")
	switch {
	case root == "" && n == 0:
		if len(args) == 0 {
			return nil, usage("merge needs the parts: PART... or --parts DIR --shards N")
		}
		return args, nil
	case root == "" || n == 0:
		return nil, usage("--parts and --shards go together: the folder the shards wrote to and how many there were")
	case len(args) > 0:
		return nil, usage("give the parts as arguments or with --parts, not both")
	}
	args, err := place.Parts(root, n)
	if err != nil {
		return nil, usage("--shards %d: %v", n, err)
	}
	return args, nil
}
