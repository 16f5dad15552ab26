package main

import (
	"context"
	"errors"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/internal/redact"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/search"
)

// errNothingRelevant is what search returns when no passage clears the
// relevance floor: the answer is printed, and the exit code (4) tells a
// script "nothing relevant" from a failure.
var errNothingRelevant = errors.New("no passage clears the relevance floor")

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "rank a snapshot's chunks for a question (BM25, vector or both fused)",
		ArgsUsage: `"QUESTION"`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder, a publish folder's latest, or a bucket's URL/latest or URL/<name>"},
			&cli.IntFlag{Name: "k", Value: search.DefaultTopK, Usage: "number of chunks to return"},
			&cli.StringFlag{Name: "mode", Value: string(search.DefaultMode), Usage: "hybrid, bm25 or vector"},
			&cli.StringFlag{Name: "lang", Usage: "only chunks in this language (en, pt)"},
			&cli.StringFlag{Name: "beach", Usage: "only chunks tied to this beach id (its lore)"},
			&cli.StringFlag{Name: "source", Usage: "only chunks with this source label"},
			&cli.StringFlag{Name: "kind", Usage: "only chunks of this kind (" + strings.Join(schema.KindNames(), ", ") + ")"},
			&cli.FloatFlag{Name: "floor", Value: search.FloorDefault, Usage: "relevance floor: when no result reaches it, say so (exit 4) instead of ranking noise; default the snapshot's calibrated floor (ingest eval proposes one), 0 for none"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object with a results array (nothing_relevant: true and no results when none clears the floor)"},
			&cli.StringFlag{Name: "config", Usage: "YAML config: retrieval.mode and retrieval.top_k are the defaults of --mode and --k"},
		}, translateFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			query := strings.TrimSpace(strings.Join(cmd.Args().Slice(), " "))
			arg := cmd.String("snapshot")
			if arg == "" || query == "" {
				return usage(`search needs --snapshot SNAPSHOT and a "QUESTION"`)
			}
			opt, err := searchOptions(ctx, cmd)
			if err != nil {
				return err
			}
			dir, cleanup, err := place.Trusted(ctx, arg) // a bucket's URL/latest is downloaded
			if err != nil {
				return err
			}
			defer cleanup()
			floor := cmd.Float("floor")
			if floor < 0 && floor != search.FloorDefault {
				return usage("--floor %g: want 0 or more", floor)
			}
			tr, err := translation(cmd)
			if err != nil {
				return err
			}
			a, err := search.Ask(ctx, dir, query, opt, floor, tr)
			if err != nil {
				return err
			}
			out := console.SearchOutput{Query: query, Snapshot: redact.URL(arg), Mode: opt.Mode, K: opt.K, Beaches: a.Beaches, Results: a.Results,
				Filter: console.SearchFilter{Lang: opt.Filter.Lang, Kind: opt.Filter.Kind, BeachID: opt.Filter.BeachID, SourceLabel: opt.Filter.SourceLabel},
				Floor:  a.Floor, NothingRelevant: a.NothingRelevant}
			if cmd.Bool("json") {
				err = console.WriteJSON(cmd.Root().Writer, out)
			} else {
				console.PrintResults(cmd.Root().Writer, a.Chunks, out)
			}
			if err == nil && a.NothingRelevant {
				return errNothingRelevant
			}
			return err
		},
	}
}

// searchOptions turns the flags into search options; a bad value is a usage error.
func searchOptions(ctx context.Context, cmd *cli.Command) (search.Options, error) {
	f, err := loadConfig(ctx, cmd)
	if err != nil {
		return search.Options{}, err
	}
	if err := f.Retrieval.Validate(); err != nil {
		return search.Options{}, settingsError(err)
	}
	settings := f.Retrieval
	if cmd.IsSet("mode") {
		settings.Mode = cmd.String("mode")
	}
	if cmd.IsSet("k") {
		settings.TopK = cmd.Int("k")
	}
	opt, err := settings.Options()
	if err != nil {
		return opt, settingsError(err)
	}
	if s := cmd.String("lang"); s != "" {
		if opt.Filter.Lang, err = schema.ParseLang(s); err != nil {
			return opt, usage("--lang: %v", err)
		}
	}
	if s := cmd.String("kind"); s != "" {
		if opt.Filter.Kind, err = schema.ParseKind(s); err != nil {
			return opt, usage("--kind: %v", err)
		}
	}
	opt.Filter.BeachID = cmd.String("beach")
	opt.Filter.SourceLabel = cmd.String("source")
	return opt, nil
}
