package search

import (
	"context"
	"fmt"
	"github.com/ocean-safety/ingest/search/golden"
	"math"
	"strconv"
	"strings"

	"github.com/ocean-safety/ingest/schema"
)

// The groups of questions a report breaks its metrics down by. A question
// belongs to its language's group and to all; it is cross-lingual too when
// none of the documents that answer it is in its language (which only a
// semantic embedder can bridge).
const (
	GroupEN    = "en"
	GroupPT    = "pt"
	GroupCross = "cross-lingual"
	GroupAll   = "all"
)

// Groups lists the groups in the order reports show them.
var Groups = []string{GroupEN, GroupPT, GroupCross, GroupAll}

// Outcome is how one mode did on one question.
type Outcome struct {
	ID           string      `json:"id"`
	Lang         schema.Lang `json:"lang"`
	Mode         Mode        `json:"mode"`
	Answerable   bool        `json:"answerable"`
	CrossLingual bool        `json:"cross_lingual,omitempty"`
	// Rank is the 1-based position of the first relevant document in the
	// ranking of distinct documents (each document ranked where its best
	// chunk is); 0 when no relevant document was retrieved.
	Rank     int     `json:"rank"`
	TopScore float64 `json:"top_score"` // 0 when nothing was retrieved
	// Relevance is the top result's (Result.Relevance), 0 when nothing was
	// retrieved: what a floor compares.
	Relevance float64 `json:"relevance"`
	TopDoc    string  `json:"top_doc,omitempty"`
	// AnswerRank is the 1-based rank of the first chunk whose text holds
	// the question's answer phrase, 0 when none was retrieved; HasAnswer
	// says the question names one.
	HasAnswer  bool `json:"has_answer,omitempty"`
	AnswerRank int  `json:"answer_rank,omitempty"`
}

// Cell is one row of the report: one mode on one group of questions.
type Cell struct {
	Mode       Mode      `json:"mode"`
	Group      string    `json:"group"`
	Answerable int       `json:"answerable"`
	Recall     []float64 `json:"recall"` // recall@k for each of Report.K, over the answerable questions
	MRR        float64   `json:"mrr"`
	// Answers counts the answerable questions that name an answer phrase;
	// AnswerAt is answer@k for each of Report.K over them: the share whose
	// phrase is in the text of one of the first k chunks retrieved.
	Answers  int       `json:"answers"`
	AnswerAt []float64 `json:"answer_at"`
	// The top score of the no-answer questions: how sure a wrong answer looks.
	NoAnswer    int     `json:"no_answer"`
	NoAnswerTop float64 `json:"no_answer_top_mean"`
	NoAnswerMax float64 `json:"no_answer_top_max"`
}

// Report is an evaluation: a cell per mode and group, and every outcome.
type Report struct {
	K        []int     `json:"k"`
	Cells    []Cell    `json:"cells"`
	Outcomes []Outcome `json:"outcomes"`
	// Separations say, per mode, how well relevance tells answerable from
	// unanswerable questions, and propose a floor.
	Separations []Separation `json:"separations"`
}

// Evaluate runs every question in every mode (with the default options:
// no filter, beach detection on) and measures, per mode and group, recall@k
// for each k in ks and MRR over the answerable questions, and the top score
// of the no-answer ones. Ranks are of distinct documents: recall@5 asks
// whether a relevant document is among the first five documents retrieved,
// however many chunks of one document come first.
func Evaluate(ctx context.Context, ix *Index, qs *golden.Set, ks []int) (*Report, error) {
	for _, k := range ks {
		if k < 1 {
			return nil, fmt.Errorf("k %d: want at least 1", k)
		}
	}
	if ix.embedder == nil {
		return nil, ix.noEmbed // every question would fail the same way
	}
	r := &Report{K: ks}
	depth := max(ix.Len(), 1) // the whole ranking: a document's rank needs every chunk above it
	for _, m := range Modes {
		for _, q := range qs.Questions {
			res, err := ix.Search(ctx, q.Question, Options{Mode: m, K: depth})
			if err != nil {
				return nil, fmt.Errorf("question %s, %s: %w", q.ID, m, err)
			}
			o := Outcome{ID: q.ID, Lang: q.Lang, Mode: m, Answerable: q.Answerable(),
				CrossLingual: q.Answerable() && ix.crossLingual(q), Rank: DocRank(res, q.RelevantDocs()),
				HasAnswer: q.Answerable() && q.Answer != "", AnswerRank: AnswerRank(res, q)}
			if len(res) > 0 {
				o.TopScore, o.TopDoc, o.Relevance = res[0].Score, res[0].DocPath, res[0].Relevance
			}
			r.Outcomes = append(r.Outcomes, o)
		}
	}
	for _, m := range Modes {
		for _, g := range Groups {
			r.Cells = append(r.Cells, r.cell(m, g))
		}
		var pos, neg []float64
		for _, o := range r.Outcomes {
			switch {
			case o.Mode != m:
			case o.Answerable:
				pos = append(pos, o.Relevance)
			default:
				neg = append(neg, o.Relevance)
			}
		}
		r.Separations = append(r.Separations, separation(m, ix.Floor(m), pos, neg))
	}
	return r, nil
}

// EvaluateDir loads the snapshot in dir, translating questions as tr says,
// and evaluates it (Evaluate). With check, the snapshot must hold every
// document and section the questions name, or the error, naming the
// snapshot as shown, lists what it lacks; a baseline may be older than the
// questions, and its misses are part of the difference.
func EvaluateDir(ctx context.Context, dir, shown string, qs *golden.Set, ks []int, check bool, tr Translation) (*Report, error) {
	ix, err := Load(ctx, dir, tr)
	if err != nil {
		return nil, err
	}
	if check {
		if err := ix.Check(qs); err != nil {
			return nil, fmt.Errorf("the questions do not match snapshot %s:\n%w", shown, err)
		}
	}
	return Evaluate(ctx, ix, qs, ks)
}

// ParseKs reads the k values of recall@k: comma-separated whole numbers of
// at least 1, each kept once, in the order given.
func ParseKs(s string) ([]int, error) {
	var ks []int
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			return nil, fmt.Errorf("%q: want comma-separated whole numbers of at least 1, such as 1,3,5,10", s)
		}
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	return ks, nil
}

// crossLingual reports whether no document answering q is in q's language.
func (ix *Index) crossLingual(q golden.Question) bool {
	for _, d := range q.RelevantDocs() {
		if ix.DocLang(d) == q.Lang {
			return false
		}
	}
	return true
}

func inGroup(o Outcome, g string) bool {
	switch g {
	case GroupEN, GroupPT:
		return string(o.Lang) == g
	case GroupCross:
		return o.CrossLingual
	}
	return true
}

func (r *Report) cell(m Mode, g string) Cell {
	c := Cell{Mode: m, Group: g}
	var ranks, answers []int
	var tops []float64
	for _, o := range r.Outcomes {
		if o.Mode != m || !inGroup(o, g) {
			continue
		}
		if o.HasAnswer {
			answers = append(answers, o.AnswerRank)
		}
		if o.Answerable {
			ranks = append(ranks, o.Rank)
		} else {
			tops = append(tops, o.TopScore)
		}
	}
	c.Answerable, c.NoAnswer, c.Answers = len(ranks), len(tops), len(answers)
	for _, k := range r.K {
		c.Recall = append(c.Recall, RecallAt(ranks, k))
		c.AnswerAt = append(c.AnswerAt, RecallAt(answers, k))
	}
	c.MRR = MRR(ranks)
	c.NoAnswerTop, c.NoAnswerMax = meanMax(tops)
	return c
}

// Cell returns the report's cell for a mode and group.
func (r *Report) Cell(m Mode, g string) (Cell, bool) {
	for _, c := range r.Cells {
		if c.Mode == m && c.Group == g {
			return c, true
		}
	}
	return Cell{}, false
}

// Recall is recall@k of mode m over group g's answerable questions, for any
// k (not only the report's), with the number of questions it is over.
func (r *Report) Recall(m Mode, g string, k int) (recall float64, n int) {
	var ranks []int
	for _, o := range r.Outcomes {
		if o.Mode == m && o.Answerable && inGroup(o, g) {
			ranks = append(ranks, o.Rank)
		}
	}
	return RecallAt(ranks, k), len(ranks)
}

// DocRank is the 1-based rank of the first relevant document among the
// distinct documents of results, in order of their best chunk; 0 when none
// is relevant.
func DocRank(results []Result, relevant []string) int {
	want := map[string]bool{}
	for _, d := range relevant {
		want[d] = true
	}
	seen := map[string]bool{}
	for _, res := range results {
		if seen[res.DocPath] {
			continue
		}
		seen[res.DocPath] = true
		if want[res.DocPath] {
			return len(seen)
		}
	}
	return 0
}

// AnswerRank is the 1-based rank of the first result whose text holds q's
// answer phrase; 0 when none does or q names none.
func AnswerRank(results []Result, q golden.Question) int {
	if q.Answer == "" {
		return 0
	}
	for i, res := range results {
		if q.HoldsAnswer(res.Text) {
			return i + 1
		}
	}
	return 0
}

// RecallAt is the share of ranks in 1..k (0 is a miss); 0 for no ranks.
func RecallAt(ranks []int, k int) float64 {
	if len(ranks) == 0 {
		return 0
	}
	hits := 0
	for _, r := range ranks {
		if r >= 1 && r <= k {
			hits++
		}
	}
	return float64(hits) / float64(len(ranks))
}

// MRR is the mean reciprocal rank, a miss counting 0; 0 for no ranks.
func MRR(ranks []int) float64 {
	if len(ranks) == 0 {
		return 0
	}
	var s float64
	for _, r := range ranks {
		if r >= 1 {
			s += 1 / float64(r)
		}
	}
	return s / float64(len(ranks))
}

func meanMax(xs []float64) (mean, hi float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	hi = math.Inf(-1)
	for _, x := range xs {
		mean += x
		hi = max(hi, x)
	}
	return mean / float64(len(xs)), hi
}
