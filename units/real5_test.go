package units

import (
	"flag"
	"strings"
	"testing"
)

// showReal5Misses logs the dev sentences of real5.jsonl that Parse gets
// wrong. Held-out ones are only counted: their misses are never printed.
var showReal5Misses = flag.Bool("real5-misses", false, "log the dev sentences of real5.jsonl that Parse gets wrong")

// TestReal5Set checks the fifth set of real sentences (issue 32, item 5),
// gathered for false alarms: at least 150 sentences a language, most with
// nothing to find, each half holding sentences with and without a
// quantity in both languages, and labels whose SI value agrees with their
// value and unit.
func TestReal5Set(t *testing.T) {
	count := map[string]int{}
	for _, c := range loadRealFile(t, "real5.jsonl") {
		kind := "empty"
		if len(c.Want) > 0 {
			kind = "quantity"
		}
		count[c.Lang]++
		count[c.Lang+"/"+kind]++
		count[c.Split+"/"+c.Lang+"/"+kind]++
		checkLabels(t, c)
	}
	for _, lang := range []string{"en", "pt"} {
		if count[lang] < 150 || count[lang+"/empty"] < 2*count[lang+"/quantity"] {
			t.Errorf("%s: got %d sentences, %d with nothing to find and %d with a quantity, want at least 150, most with nothing to find",
				lang, count[lang], count[lang+"/empty"], count[lang+"/quantity"])
		}
		for _, split := range []string{"dev", "heldout"} {
			if q, e := count[split+"/"+lang+"/quantity"], count[split+"/"+lang+"/empty"]; q < 5 || e < 60 {
				t.Errorf("%s %s: got %d sentences with a quantity and %d with none, want at least 5 and 60", split, lang, q, e)
			}
		}
	}
}

// The bounds on the held-out half of real5.jsonl, measured once after the
// fixes made on its dev half: F1 at the figures reached, en 0.895 (17 of 18
// quantities found, 3 extra; 0.778 before the fixes) and pt 0.850 (17 of
// 18, 5 extra; 0.829 before), and the sentences with nothing to find that
// get a quantity, both languages together, at the 8 of 142 (5.6%) reached
// (10, 7.0%, before). Issue 32 asks for F1 0.9 and 1%, which this half
// says Parse does not reach; the bounds are the figures, not numbers
// chosen to pass.
var real5F1Floor = map[string]float64{"en": 34.0 / 38, "pt": 34.0 / 40}

const real5FalseHitShare = 8.0 / 142

// TestReal5Score reports precision, recall and F1 per language and
// dimension, and the false quantities per language, on both halves of
// real5.jsonl, and holds the held-out half to the bounds above. Run with
// -v to see the tables and with -real5-misses to see the development
// sentences that fail:
//
//	go test ./units -run TestReal5Score -v
func TestReal5Score(t *testing.T) {
	var cases []sentenceCase
	for _, c := range loadRealFile(t, "real5.jsonl") {
		cases = append(cases, c.sentenceCase)
	}
	for _, split := range []string{"dev", "heldout"} {
		s := scoreSentences(cases, split)
		t.Logf("%s\n%s", split, s.table())
		if split == "dev" && *showReal5Misses {
			t.Logf("dev misses:\n%s", strings.Join(s.misses, "\n"))
		}
		if split != "heldout" {
			continue
		}
		for _, lang := range []string{"en", "pt"} {
			if got := s.tallies[lang+"/"]; got == nil || f1(*got) < real5F1Floor[lang]-1e-9 {
				t.Errorf("heldout %s: got F1 %.3f, want at least %.3f", lang, f1(orZero(got)), real5F1Floor[lang])
			}
		}
		hits, empty := s.falseHit["en"]+s.falseHit["pt"], s.empty["en"]+s.empty["pt"]
		if share := ratio(hits, empty); share > real5FalseHitShare+1e-9 {
			t.Errorf("heldout: got %d of %d sentences with nothing to find with a quantity (%.1f%%), want at most %.1f%%",
				hits, empty, 100*share, 100*real5FalseHitShare)
		}
	}
}
