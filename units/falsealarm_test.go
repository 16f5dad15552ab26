package units

import (
	"flag"
	"strings"
	"testing"
)

// showSetMisses logs the dev sentences of one false-alarm set that Parse
// gets wrong. Held-out ones are only counted: their misses are never printed.
var showSetMisses = flag.String("set-misses", "", "log the dev sentences of this false-alarm set (real4.jsonl … real7.jsonl) that Parse gets wrong")

// falseAlarmSets are the sets of real sentences gathered for false alarms
// (issue 32, item 5), each from sources no earlier set used, with the
// bounds on its held-out half: measured once, after the fixes made on its
// dev half, and set at the figures reached, not at numbers chosen to pass.
// Issue 32 asks for F1 0.9 a language and 1% of the sentences with nothing
// to find given a quantity.
var falseAlarmSets = []struct {
	file string
	f1   map[string]float64 // the least F1 a language
	// falseHits is the largest share of the sentences with nothing to
	// find, both languages together, that may get a quantity.
	falseHits float64
	// least is how many sentences with a quantity each half holds in each
	// language at the least: a set drawn from text that seldom states one
	// holds few.
	least int
}{
	// real4: en 0.938 and pt 0.978 (every quantity found, 3 extra; 0.500
	// and 0.533 before its fixes); 3 of 141 (2.1%) false (14, 9.9%, before).
	{"real4.jsonl", map[string]float64{"en": 0.9, "pt": 0.9}, 3.0 / 141, 5},
	// real5: en 0.895 (17 of 18 quantities found, 3 extra; 0.778 before
	// its fixes) and pt 0.850 (17 of 18, 5 extra; 0.829 before); 8 of 142
	// (5.6%) false (10, 7.0%, before). Its halves disagree: its dev half's
	// false alarms were one kind, its held-out half's others.
	{"real5.jsonl", map[string]float64{"en": 34.0 / 38, "pt": 34.0 / 40}, 8.0 / 142, 5},
	// real6: en 0.615 (4 of 7 quantities found, 2 extra; 0.571 before its
	// fixes) and pt 0.500 (3 of 7, 2 extra; 0.353 before); 1 of 146 (0.7%)
	// false (7, 4.8%, before). Software catalogues seldom state a length:
	// 4 sentences a language of its held-out half hold one, too few for an
	// F1 to say much, and its dev half holds 1 and 2.
	{"real6.jsonl", map[string]float64{"en": 8.0 / 13, "pt": 6.0 / 12}, 1.0 / 146, 1},
	// real7: a gliding computer's manual and catalogue, rich in lengths
	// and speeds: en 1.000 and pt 1.000 (all 34 and 32 quantities found,
	// none extra; 0.907 and 0.901 before its fixes, 7 angles a language
	// read as temperatures); 0 of 136 false (2, 1.5%, before). Its halves
	// are drawn from the same two documents, so the held-out half shares
	// the dev half's phrasings: a figure for this kind of text, not for
	// every kind.
	{"real7.jsonl", map[string]float64{"en": 1, "pt": 1}, 0, 20},
}

// TestFalseAlarmSets checks each false-alarm set: at least 150 sentences a
// language, most with nothing to find, each half holding sentences with and
// without a quantity in both languages, and labels whose SI value agrees
// with their value and unit.
func TestFalseAlarmSets(t *testing.T) {
	for _, set := range falseAlarmSets {
		t.Run(set.file, func(t *testing.T) {
			count := map[string]int{}
			for _, c := range loadRealFile(t, set.file) {
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
					if q, e := count[split+"/"+lang+"/quantity"], count[split+"/"+lang+"/empty"]; q < set.least || e < 60 {
						t.Errorf("%s %s: got %d sentences with a quantity and %d with none, want at least %d and 60", split, lang, q, e, set.least)
					}
				}
			}
		})
	}
}

// TestFalseAlarmScores reports precision, recall and F1 per language and
// dimension, and the false quantities per language, on both halves of each
// false-alarm set, and holds the held-out half to the set's bounds. Run
// with -v to see the tables and with -set-misses FILE to see a set's
// development sentences that fail:
//
//	go test ./units -run TestFalseAlarmScores/real5 -v
func TestFalseAlarmScores(t *testing.T) {
	for _, set := range falseAlarmSets {
		t.Run(set.file, func(t *testing.T) {
			var cases []sentenceCase
			for _, c := range loadRealFile(t, set.file) {
				cases = append(cases, c.sentenceCase)
			}
			for _, split := range []string{"dev", "heldout"} {
				s := scoreSentences(cases, split)
				t.Logf("%s\n%s", split, s.table())
				if split == "dev" && *showSetMisses == set.file {
					t.Logf("dev misses:\n%s", strings.Join(s.misses, "\n"))
				}
				if split != "heldout" {
					continue
				}
				for _, lang := range []string{"en", "pt"} {
					if got := s.tallies[lang+"/"]; got == nil || f1(*got) < set.f1[lang]-1e-9 {
						t.Errorf("heldout %s: got F1 %.3f, want at least %.3f", lang, f1(orZero(got)), set.f1[lang])
					}
				}
				hits, empty := s.falseHit["en"]+s.falseHit["pt"], s.empty["en"]+s.empty["pt"]
				if share := ratio(hits, empty); share > set.falseHits+1e-9 {
					t.Errorf("heldout: got %d of %d sentences with nothing to find with a quantity (%.1f%%), want at most %.1f%%",
						hits, empty, 100*share, 100*set.falseHits)
				}
			}
		})
	}
}
