package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/cmd/ingest/internal/console"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/search/golden"
)

// gateK is the k of the --min-recall gate: the default top_k, what a reader
// model is actually given.
const gateK = search.DefaultTopK

// evalOutput is the --json form of `ingest eval` (console.EvalOutput).
type evalOutput = console.EvalOutput

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure retrieval on golden questions: recall@k and MRR per mode and language",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder, a publish folder's latest, or a bucket's URL/latest or URL/<name>"},
			&cli.StringFlag{Name: "questions", Usage: "golden-questions JSON file (e.g. corpus/ocean.golden.json)"},
			&cli.StringFlag{Name: "k", Value: "1,3,5,10", Usage: "comma-separated k values for recall@k"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON on stdout instead of the table"},
			&cli.StringFlag{Name: "output", Usage: "also write the report as JSON to FILE"},
			&cli.FloatFlag{Name: "min-recall", Usage: fmt.Sprintf("fail (exit 1) when hybrid recall@%d over the answerable questions is below R", gateK)},
			&cli.StringFlag{Name: "baseline", Usage: "an older snapshot (any SNAPSHOT form) to evaluate too; cells show the difference"},
			&cli.StringFlag{Name: "half", Usage: "only one half of the questions: dev (the FNV-1a hash of the id even: what a change is tuned and a floor calibrated on) or held-out (the rest)"},
		}, translateFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir, qfile := cmd.String("snapshot"), cmd.String("questions")
			if dir == "" || qfile == "" || cmd.Args().Len() > 0 {
				return usage("eval needs --snapshot DIR and --questions FILE, and no arguments")
			}
			ks, err := search.ParseKs(cmd.String("k"))
			if err != nil {
				return usage("--k %v", err)
			}
			minRecall := cmd.Float("min-recall")
			if !(minRecall >= 0 && minRecall <= 1) { // NaN too: "got < NaN" is never true, so the gate would always pass
				return usage("--min-recall %g: want 0..1", minRecall)
			}
			qs, err := golden.Read(qfile)
			if err != nil {
				return usageError{err}
			}
			if qs, err = qs.Half(cmd.String("half")); err != nil {
				return usage("--half: %v", err)
			}
			tr, err := translation(cmd)
			if err != nil {
				return err
			}
			out := evalOutput{Snapshot: dir, Questions: qfile}
			if out.Report, err = evaluate(ctx, dir, qs, ks, true, tr); err != nil {
				return err
			}
			if base := cmd.String("baseline"); base != "" {
				rep, err := evaluate(ctx, base, qs, ks, false, tr)
				if err != nil {
					return fmt.Errorf("baseline: %w", err)
				}
				out.Baseline = &console.EvalBaseline{Snapshot: base, Report: rep}
			}
			if err := writeEval(cmd.Root().Writer, cmd.Bool("json"), cmd.String("output"), out, qs); err != nil {
				return err
			}
			if cmd.IsSet("min-recall") {
				got, n := out.Report.Recall(search.ModeHybrid, search.GroupAll, gateK)
				if got < minRecall {
					return fmt.Errorf("eval: hybrid recall@%d is %.3f over %d answerable questions, below --min-recall %.3f", gateK, got, n, minRecall)
				}
			}
			return nil
		},
	}
}

// evaluate makes the snapshot argument a folder and evaluates it
// (search.EvaluateDir): check for the snapshot under test, not a baseline.
func evaluate(ctx context.Context, arg string, qs *golden.Set, ks []int, check bool, tr search.Translation) (*search.Report, error) {
	dir, cleanup, err := place.Trusted(ctx, arg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	return search.EvaluateDir(ctx, dir, arg, qs, ks, check, tr)
}

// writeEval writes the report: as JSON to --output's file, and on stdout as
// JSON or as the table.
func writeEval(stdout io.Writer, asJSON bool, file string, out evalOutput, qs *golden.Set) error {
	b, err := console.EvalJSON(out)
	if err != nil {
		return err
	}
	if file != "" {
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return fmt.Errorf("write eval report: %w", err)
		}
	}
	if asJSON {
		_, err = stdout.Write(b)
		return err
	}
	console.PrintEval(stdout, out, qs)
	return nil
}
