package console

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/search"
	"github.com/ocean-safety/ingest/search/golden"
)

// EvalOutput is the --json form of `ingest eval`.
type EvalOutput struct {
	Snapshot  string         `json:"snapshot"`
	Questions string         `json:"questions"`
	Report    *search.Report `json:"report"`
	Baseline  *EvalBaseline  `json:"baseline,omitempty"`
}

// EvalBaseline is the older snapshot an evaluation is compared with.
type EvalBaseline struct {
	Snapshot string         `json:"snapshot"`
	Report   *search.Report `json:"report"`
}

// PrintEval prints the report as a Markdown table, a row per mode and
// group; with a baseline each number is followed by its difference.
func PrintEval(w io.Writer, out EvalOutput, qs *golden.Set) {
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
	printSeparations(w, out.Report.Separations)
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

// EvalJSON is out as the --json document (and --output's file): indented,
// with a newline.
func EvalJSON(out EvalOutput) ([]byte, error) {
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode eval report: %w", err)
	}
	return append(b, '\n'), nil
}

// printSeparations writes how well each mode's relevance tells answerable
// from unanswerable questions, and the floors.
func printSeparations(w io.Writer, seps []search.Separation) {
	if len(seps) == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Nothing relevant: AUROC of the top result's relevance, answerable against unanswerable questions; the floor")
	fmt.Fprintln(w, "proposed for this snapshot (flagging at most a tenth of the answerable); the floor in use and what it flags.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| mode | answerable | unanswerable | AUROC | proposed floor | floor | unanswerable flagged | answerable flagged | precision |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, s := range seps {
		fmt.Fprintf(w, "| %s | %d | %d | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f |\n", s.Mode, s.Answerable, s.Unanswerable, s.AUROC, s.Proposed, s.Floor,
			s.FlaggedUnanswerable, s.FlaggedAnswerable, s.Precision)
	}
}
