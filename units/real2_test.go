package units

import (
	"flag"
	"strings"
	"testing"
)

// showReal2Misses logs the dev sentences of real2.jsonl that Parse gets
// wrong. Held-out ones are only counted: their misses are never printed.
var showReal2Misses = flag.Bool("real2-misses", false, "log the dev sentences of real2.jsonl that Parse gets wrong")

// TestReal2Set checks the second set of real sentences (issue 32, item 5):
// at least 200 sentences a language, 150 sentences with nothing to find in
// each half, and labels whose SI value agrees with their value and unit.
func TestReal2Set(t *testing.T) {
	count := map[string]int{}
	for _, c := range loadRealFile(t, "real2.jsonl") {
		count[c.Lang]++
		if len(c.Want) == 0 {
			count[c.Split+"/empty"]++
		}
		for _, w := range c.Want {
			lf, ok := labelFactors[w.Unit]
			if !ok || lf.si != w.SIUnit {
				t.Errorf("%s: got unit %q with SI unit %q, want a unit code of labelFactors", c.ID, w.Unit, w.SIUnit)
				continue
			}
			if got := labelSI(w.Value, w.Unit); !nearSI(got, w.SI) {
				t.Errorf("%s: %q: got SI %v from %v %s, want %v as labelled", c.ID, w.Surface, got, w.Value, w.Unit, w.SI)
			}
		}
	}
	for _, lang := range []string{"en", "pt"} {
		if count[lang] < 200 {
			t.Errorf("%s: got %d sentences, want at least 200", lang, count[lang])
		}
	}
	for _, split := range []string{"dev", "heldout"} {
		if count[split+"/empty"] < 150 {
			t.Errorf("%s: got %d sentences with nothing to find, want at least 150", split, count[split+"/empty"])
		}
	}
}

// TestReal2Score reports precision, recall and F1 per language and
// dimension, and the false quantities per language, on both halves of
// real2.jsonl. Run with -v to see the tables and with -real2-misses to see
// the development sentences that fail:
//
//	go test ./units -run TestReal2Score -v
func TestReal2Score(t *testing.T) {
	var cases []sentenceCase
	for _, c := range loadRealFile(t, "real2.jsonl") {
		cases = append(cases, c.sentenceCase)
	}
	for _, split := range []string{"dev", "heldout"} {
		s := scoreSentences(cases, split)
		t.Logf("%s\n%s", split, s.table())
		if split == "dev" && *showReal2Misses {
			t.Logf("dev misses:\n%s", strings.Join(s.misses, "\n"))
		}
	}
}
