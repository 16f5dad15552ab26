package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/place"
	"github.com/ocean-safety/ingest/search"
)

// gateK is the k of the --min-recall gate: the default top_k, what a reader
// model is actually given.
const gateK = search.DefaultTopK

// evalOutput is the --json form of `ingest eval`.
type evalOutput struct {
	Snapshot  string         `json:"snapshot"`
	Questions string         `json:"questions"`
	Report    *search.Report `json:"report"`
	Baseline  *evalBaseline  `json:"baseline,omitempty"`
}

type evalBaseline struct {
	Snapshot string         `json:"snapshot"`
	Report   *search.Report `json:"report"`
}

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "measure retrieval on golden questions: recall@k and MRR per mode and language",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder, a publish folder's latest, or a bucket's URL/latest or URL/<name>"},
			&cli.StringFlag{Name: "questions", Usage: "golden-questions JSON file (e.g. corpus/ocean.golden.json)"},
			&cli.StringFlag{Name: "k", Value: "1,3,5,10", Usage: "comma-separated k values for recall@k"},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON on stdout instead of the table"},
			&cli.StringFlag{Name: "output", Usage: "also write the report as JSON to FILE"},
			&cli.FloatFlag{Name: "min-recall", Usage: fmt.Sprintf("fail (exit 1) when hybrid recall@%d over the answerable questions is below R", gateK)},
			&cli.StringFlag{Name: "baseline", Usage: "an older snapshot (any SNAPSHOT form) to evaluate too; cells show the difference"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir, qfile := cmd.String("snapshot"), cmd.String("questions")
			if dir == "" || qfile == "" || cmd.Args().Len() > 0 {
				return usage("eval needs --snapshot DIR and --questions FILE, and no arguments")
			}
			ks, err := parseKs(cmd.String("k"))
			if err != nil {
				return usageError{err}
			}
			minRecall := cmd.Float("min-recall")
			if minRecall < 0 || minRecall > 1 {
				return usage("--min-recall %g: want 0..1", minRecall)
			}
			qs, err := search.ReadQuestions(qfile)
			if err != nil {
				return usageError{err}
			}
			out := evalOutput{Snapshot: dir, Questions: qfile}
			if out.Report, err = evaluate(ctx, dir, qs, ks, true); err != nil {
				return err
			}
			if base := cmd.String("baseline"); base != "" {
				rep, err := evaluate(ctx, base, qs, ks, false)
				if err != nil {
					return fmt.Errorf("baseline: %w", err)
				}
				out.Baseline = &evalBaseline{Snapshot: base, Report: rep}
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

// evaluate loads a snapshot and evaluates it. The snapshot under test must
// hold every document and section the questions name; a baseline may be
// older than the questions, and its misses are part of the difference.
func evaluate(ctx context.Context, arg string, qs *search.QuestionSet, ks []int, check bool) (*search.Report, error) {
	dir, cleanup, err := place.Trusted(ctx, arg)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	ix, err := search.Load(ctx, dir)
	if err != nil {
		return nil, err
	}
	if check {
		if err := ix.Check(qs); err != nil {
			return nil, fmt.Errorf("the questions do not match snapshot %s:\n%w", arg, err)
		}
	}
	return search.Evaluate(ctx, ix, qs, ks)
}

func parseKs(s string) ([]int, error) {
	var ks []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("--k %q: want comma-separated whole numbers of at least 1, such as 1,3,5,10", s)
		}
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	return ks, nil
}

func writeEval(stdout io.Writer, asJSON bool, file string, out evalOutput, qs *search.QuestionSet) error {
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encode eval report: %w", err)
	}
	b = append(b, '\n')
	if file != "" {
		if err := os.WriteFile(file, b, 0o644); err != nil {
			return fmt.Errorf("write eval report: %w", err)
		}
	}
	if asJSON {
		_, err = stdout.Write(b)
		return err
	}
	printEval(stdout, out, qs)
	return nil
}

// printEval prints the report as a Markdown table, a row per mode and
// group; with a baseline each number is followed by its difference.
func printEval(w io.Writer, out evalOutput, qs *search.QuestionSet) {
	answerable := 0
	for _, q := range qs.Questions {
		if q.Answerable() {
			answerable++
		}
	}
	fmt.Fprintf(w, "Retrieval on %s: %d questions from %s (%d answerable, %d without an answer).\n",
		out.Snapshot, len(qs.Questions), out.Questions, answerable, len(qs.Questions)-answerable)
	fmt.Fprintln(w, "Ranks are of distinct documents: recall@k counts a question when its expected document, or an")
	fmt.Fprintln(w, "acceptable alternate, is among the first k documents retrieved. Top scores of the questions")
	fmt.Fprintln(w, "without an answer are on each mode's scale (BM25 score, cosine, RRF score). answer@k counts a")
	fmt.Fprintln(w, "question that names an answer phrase when the text of one of the first k chunks holds it.")
	if out.Baseline != nil {
		fmt.Fprintf(w, "Each number is followed by its difference from the baseline %s.\n", out.Baseline.Snapshot)
	}
	fmt.Fprintln(w)

	head := []string{"mode", "questions", "n"}
	for _, k := range out.Report.K {
		head = append(head, fmt.Sprintf("recall@%d", k))
	}
	head = append(head, "MRR")
	answers := 0
	for _, q := range qs.Questions {
		if q.Answer != "" {
			answers++
		}
	}
	if answers > 0 {
		head = append(head, "answers")
		for _, k := range out.Report.K {
			head = append(head, fmt.Sprintf("answer@%d", k))
		}
	}
	head = append(head, "no answer", "top mean", "top max")
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, c := range out.Report.Cells {
		var base *search.Cell
		if out.Baseline != nil {
			if b, ok := out.Baseline.Report.Cell(c.Mode, c.Group); ok {
				base = &b
			}
		}
		row := []string{string(c.Mode), c.Group, strconv.Itoa(c.Answerable)}
		for i := range out.Report.K {
			row = append(row, evalNumber(c.Answerable, c.Recall[i], base, func(b *search.Cell) float64 { return b.Recall[i] }))
		}
		row = append(row, evalNumber(c.Answerable, c.MRR, base, func(b *search.Cell) float64 { return b.MRR }))
		if answers > 0 {
			row = append(row, strconv.Itoa(c.Answers))
			for i := range out.Report.K {
				row = append(row, evalNumber(c.Answers, c.AnswerAt[i], base, func(b *search.Cell) float64 { return b.AnswerAt[i] }))
			}
		}
		row = append(row,
			strconv.Itoa(c.NoAnswer),
			evalNumber(c.NoAnswer, c.NoAnswerTop, base, func(b *search.Cell) float64 { return b.NoAnswerTop }),
			evalNumber(c.NoAnswer, c.NoAnswerMax, base, func(b *search.Cell) float64 { return b.NoAnswerMax }))
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

// evalNumber formats one cell: "–" when it is over no question, else the
// value and, with a baseline, the difference from it.
func evalNumber(n int, v float64, base *search.Cell, of func(*search.Cell) float64) string {
	if n == 0 {
		return "–"
	}
	s := fmt.Sprintf("%.3f", v)
	if base != nil {
		s += fmt.Sprintf(" (%+.3f)", v-of(base))
	}
	return s
}
