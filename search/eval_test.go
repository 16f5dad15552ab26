package search

import (
	"context"
	"errors"
	"github.com/ocean-safety/ingest/search/golden"
	"math"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestDocRank(t *testing.T) {
	res := func(docs ...string) []Result {
		out := make([]Result, len(docs))
		for i, d := range docs {
			out[i] = Result{DocPath: d}
		}
		return out
	}
	tests := []struct {
		name     string
		results  []Result
		relevant []string
		want     int
	}{
		{"first", res("a", "b"), []string{"a"}, 1},
		{"chunks of one document count once", res("a", "a", "a", "b", "c"), []string{"c"}, 3},
		{"an alternate counts", res("a", "b", "c"), []string{"z", "b"}, 2},
		{"the best relevant document", res("a", "c", "b"), []string{"b", "c"}, 2},
		{"miss", res("a", "b"), []string{"c"}, 0},
		{"no answer", res("a"), nil, 0},
		{"nothing retrieved", nil, []string{"a"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DocRank(tt.results, tt.relevant); got != tt.want {
				t.Errorf("got rank %d, want %d", got, tt.want)
			}
		})
	}
}

func TestMetrics(t *testing.T) {
	ranks := []int{1, 3, 0, 2, 7}
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"recall@1", RecallAt(ranks, 1), 1.0 / 5},
		{"recall@3", RecallAt(ranks, 3), 3.0 / 5},
		{"recall@5", RecallAt(ranks, 5), 3.0 / 5},
		{"recall@10", RecallAt(ranks, 10), 4.0 / 5},
		{"MRR", MRR(ranks), (1 + 1.0/3 + 0 + 1.0/2 + 1.0/7) / 5},
		{"recall of nothing", RecallAt(nil, 5), 0},
		{"MRR of nothing", MRR(nil), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if math.Abs(tt.got-tt.want) > 1e-12 {
				t.Errorf("got %.6f, want %.6f", tt.got, tt.want)
			}
		})
	}
}

// TestEvaluate runs a tiny golden set by hand: per mode and group, the
// ranks of the answerable questions and the top scores of the others.
func TestEvaluate(t *testing.T) {
	ix := embedded(t,
		chunk("rip.md", schema.LangEN, schema.KindProse, "", "Escape a rip current by swimming parallel to the shore."),
		chunk("sol.md", schema.LangPT, schema.KindProse, "", "Reaplique o protetor solar a cada duas horas."),
		chunk("sun.md", schema.LangEN, schema.KindProse, "", "Reapply sunscreen every two hours."),
	)
	doc := func(s string) *string { return &s }
	qs := &golden.Set{Version: 1, Questions: []golden.Question{
		{ID: "en-rip", Lang: schema.LangEN, Question: "How do I escape a rip current?", ExpectedDoc: doc("rip.md")},
		{ID: "pt-protetor", Lang: schema.LangPT, Question: "Quando reaplicar o protetor solar?", ExpectedDoc: doc("sol.md")},
		{ID: "x-pt-sunscreen", Lang: schema.LangPT, Question: "Quando reaplicar o protetor solar?", ExpectedDoc: doc("sun.md")},
		{ID: "en-none", Lang: schema.LangEN, Question: "Sharks in Bali?", ExpectedDoc: nil},
	}}
	rep, err := Evaluate(context.Background(), ix, qs, []int{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		mode       Mode
		group      string
		answerable int
		recall1    float64
		noAnswer   int
	}{
		// The cross-lingual question shares no word with sun.md: BM25 misses it;
		// in the other modes it ranks second or lower (after sol.md).
		{ModeBM25, GroupAll, 3, 2.0 / 3, 1},
		{ModeBM25, GroupEN, 1, 1, 1},
		{ModeBM25, GroupPT, 2, 1.0 / 2, 0},
		{ModeBM25, GroupCross, 1, 0, 0},
		{ModeHybrid, GroupCross, 1, 0, 0},
		{ModeHybrid, GroupAll, 3, 2.0 / 3, 1},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode)+"/"+tt.group, func(t *testing.T) {
			c, ok := rep.Cell(tt.mode, tt.group)
			if !ok {
				t.Fatalf("got no cell")
			}
			if c.Answerable != tt.answerable || c.NoAnswer != tt.noAnswer || math.Abs(c.Recall[0]-tt.recall1) > 1e-12 {
				t.Errorf("got %d answerable, %d no-answer, recall@1 %.3f; want %d, %d, %.3f", c.Answerable, c.NoAnswer, c.Recall[0], tt.answerable, tt.noAnswer, tt.recall1)
			}
		})
	}
	if r, n := rep.Recall(ModeBM25, GroupAll, 10); n != 3 || math.Abs(r-2.0/3) > 1e-12 {
		t.Errorf("got bm25 recall@10 %.3f over %d, want 0.667 over 3 (sun.md is never retrieved)", r, n)
	}
	if c, _ := rep.Cell(ModeBM25, GroupEN); c.NoAnswerMax != 0 || c.NoAnswerTop != 0 {
		t.Errorf("got no-answer top %.3f/%.3f, want 0: the question shares no word with the corpus", c.NoAnswerTop, c.NoAnswerMax)
	}
}

// TestAnswerAt: a question that names an answer phrase is answered at the
// rank of the first chunk whose text holds it, whatever document ranks
// first: the right page is not enough.
func TestAnswerAt(t *testing.T) {
	ix := embedded(t,
		chunk("install.md", schema.LangEN, schema.KindProse, "", "To install the SDK of the collector, run the installer:"),
		chunk("install.md", schema.LangEN, schema.KindProse, "", "```sh\nnpm   install @opentelemetry/sdk-node\n```"),
		chunk("other.md", schema.LangEN, schema.KindProse, "", "Reapply sunscreen every two hours."),
	)
	doc := func(s string) *string { return &s }
	qs := &golden.Set{Version: 1, Questions: []golden.Question{
		{ID: "en-install", Lang: schema.LangEN, Question: "How do I install the SDK of the collector?", ExpectedDoc: doc("install.md"), Answer: "NPM install @opentelemetry/sdk-node"},
		{ID: "en-sun", Lang: schema.LangEN, Question: "How often should I reapply sunscreen?", ExpectedDoc: doc("other.md")},
		{ID: "en-none", Lang: schema.LangEN, Question: "Sharks in Bali?", ExpectedDoc: nil},
	}}
	if err := ix.Check(qs); err != nil {
		t.Fatalf("Check: %v", err)
	}
	rep, err := Evaluate(context.Background(), ix, qs, []int{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := rep.Cell(ModeBM25, GroupAll)
	// BM25 ranks the lead-in first (it shares the question's words), the
	// command second: the document is found at 1, the answer at 2.
	if c.Answers != 1 || c.AnswerAt[0] != 0 || c.AnswerAt[1] != 1 || c.Recall[0] != 1 {
		t.Errorf("got %d answers, answer@1 %.2f, answer@2 %.2f, recall@1 %.2f; want 1, 0, 1, 1", c.Answers, c.AnswerAt[0], c.AnswerAt[1], c.Recall[0])
	}
	for _, o := range rep.Outcomes {
		if o.ID != "en-install" && (o.HasAnswer || o.AnswerRank != 0) {
			t.Errorf("%s: got has_answer %v, answer rank %d, want neither", o.ID, o.HasAnswer, o.AnswerRank)
		}
	}
	qs.Questions[0].Answer = "yarn add"
	if err := ix.Check(qs); err == nil || !strings.Contains(err.Error(), `answer "yarn add" is in the text of no chunk`) {
		t.Errorf("Check: got %v, want the answer named as missing", err)
	}
}

func TestEvaluateCancelled(t *testing.T) {
	ix := embedded(t, chunk("rip.md", schema.LangEN, schema.KindProse, "", "rip current"))
	doc := "rip.md"
	qs := &golden.Set{Version: 1, Questions: []golden.Question{{ID: "q", Lang: schema.LangEN, Question: "rip?", ExpectedDoc: &doc}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, ix, qs, []int{1}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
