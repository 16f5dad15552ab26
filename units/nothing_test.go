package units

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// showNothingMisses logs the dev sentences of nothing.jsonl that get a
// quantity. Held-out ones are only counted.
var showNothingMisses = flag.Bool("nothing-misses", false, "log the dev sentences of nothing.jsonl that get a quantity")

// nothingCase is one line of testdata/nothing.jsonl: a sentence of real
// text (the otel docs, the shipped corpus, Go module READMEs) that a reader
// finds no length, speed or temperature in.
type nothingCase struct {
	ID    string `json:"id"`
	Split string `json:"split"` // dev (tuned on) or heldout (measured only)
	Lang  string `json:"lang"`
	Src   string `json:"src"` // otel, ocean, readme
	Doc   string `json:"doc"` // where it was taken from, path:line
	Text  string `json:"text"`
}

func loadNothing(t testing.TB) []nothingCase {
	t.Helper()
	return readLines(t, "nothing.jsonl", func(c *nothingCase) error {
		if c.Split != "dev" && c.Split != "heldout" || c.Lang != "en" && c.Lang != "pt" || c.Text == "" {
			return fmt.Errorf("got split %q, lang %q, text %q, want dev or heldout, en or pt, a text", c.Split, c.Lang, c.Text)
		}
		return nil
	})
}

// falseQuantityCeiling is the share of sentences with nothing to find that
// may get a quantity, per language and split (issue 24's target).
const falseQuantityCeiling = 0.02

// TestNothingToFind holds Parse to the sentences of real text that have no
// quantity: at most falseQuantityCeiling of them, per language and split,
// may get one. It logs the false-quantity rate per language, split and
// source, the false quantities per dimension, and precision, recall and F1
// per language and dimension over sentences.jsonl and nothing.jsonl
// together:
//
//	go test ./units -run TestNothingToFind -v                  # rates
//	go test ./units -run TestNothingToFind -v -nothing-misses  # and the dev sentences that fail
func TestNothingToFind(t *testing.T) {
	cases := loadNothing(t)
	type count struct{ sentences, hit, quantities int }
	counts := map[string]*count{}
	dims := map[string]int{}
	var misses []string
	for _, c := range cases {
		got := Parse(c.Text, Options{Lang: c.Lang})
		for _, k := range []string{c.Lang + "/" + c.Split + "/all", c.Lang + "/" + c.Split + "/" + c.Src} {
			if counts[k] == nil {
				counts[k] = &count{}
			}
			counts[k].sentences++
			counts[k].quantities += len(got)
			if len(got) > 0 {
				counts[k].hit++
			}
		}
		if len(got) == 0 {
			continue
		}
		var qs []string
		for _, q := range got {
			dims[c.Lang+"/"+c.Split+"/"+string(q.Dimension)]++
			qs = append(qs, fmt.Sprintf("%q = %s", q.Surface, Canonical(q)))
		}
		if c.Split == "dev" {
			misses = append(misses, fmt.Sprintf("%s (%s) %q: %s", c.ID, c.Doc, c.Text, strings.Join(qs, "; ")))
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-8s %-7s %9s %10s %10s %7s\n", "lang", "split", "source", "sentences", "with a hit", "quantities", "rate")
	for _, k := range keys {
		p := strings.Split(k, "/")
		n := counts[k]
		fmt.Fprintf(&b, "%-4s %-8s %-7s %9d %10d %10d %6.1f%%\n", p[0], p[1], p[2], n.sentences, n.hit, n.quantities, 100*ratio(n.hit, n.sentences))
	}
	dk := make([]string, 0, len(dims))
	for k := range dims {
		dk = append(dk, k)
	}
	sort.Strings(dk)
	for _, k := range dk {
		fmt.Fprintf(&b, "false %s: %d\n", k, dims[k])
	}
	t.Log("\n" + b.String())
	// Precision, recall and F1 per language and dimension over both sets:
	// the quantities of sentences.jsonl and the nothing of real text.
	var all []sentenceCase
	for _, c := range loadSentences(t) {
		c.Split = "all"
		all = append(all, c)
	}
	for _, c := range cases {
		all = append(all, sentenceCase{ID: c.ID, Split: "all", Lang: c.Lang, Cat: "real", Text: c.Text})
	}
	t.Logf("sentences.jsonl and nothing.jsonl together:\n%s", scoreSentences(all, "all").table())
	if *showNothingMisses {
		t.Logf("dev sentences with a quantity:\n%s", strings.Join(misses, "\n"))
	}
	if len(cases) < 300 {
		t.Errorf("got %d sentences with nothing to find, want at least 300", len(cases))
	}
	for _, k := range keys {
		if n := counts[k]; strings.HasSuffix(k, "/all") && ratio(n.hit, n.sentences) > falseQuantityCeiling {
			t.Errorf("%s: got %d of %d sentences with a quantity (%.1f%%), want at most %.0f%%",
				strings.TrimSuffix(k, "/all"), n.hit, n.sentences, 100*ratio(n.hit, n.sentences), 100*falseQuantityCeiling)
		}
	}
}
