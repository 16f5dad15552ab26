package units

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// showMisses logs the development sentences Parse gets wrong. Held-out
// misses are never printed: the held-out half measures, it is not tuned on.
// showFresh logs the fresh sentences' misses, for a closing report only.
var (
	showMisses = flag.Bool("misses", false, "log the dev sentences of sentences.jsonl that Parse gets wrong")
	showFresh  = flag.Bool("fresh-misses", false, "log the fresh sentences Parse gets wrong (to report, not to tune)")
)

// sentenceCase is one line of testdata/sentences.jsonl: a sentence written
// for issue 16, with every length, speed and temperature a reader finds in
// it. Split is "dev" (tuned on), "heldout" (measured only) or "fresh"
// (written after the parser was built, measured only).
type sentenceCase struct {
	ID    string          `json:"id"`
	Split string          `json:"split"`
	Lang  string          `json:"lang"`
	Cat   string          `json:"cat"`
	Text  string          `json:"text"`
	Want  []sentenceQuant `json:"want"`
}

// sentenceQuant is one expected quantity: its surface, its value in the
// unit written first (a compound's sum, "5 ft 8 in" is 5.667 ft), a unit
// code of labelFactors, and the SI value.
type sentenceQuant struct {
	Surface string  `json:"s"`
	Value   float64 `json:"v"`
	Unit    string  `json:"u"`
	SI      float64 `json:"si"`
	SIUnit  string  `json:"su"`
	start   int     // found from Surface by locateSentence
}

// labelFactors convert a label's unit code to SI, independently of the
// parser's table, so a typo in a label shows up as a failed check.
var labelFactors = map[string]struct {
	factor float64
	si     string
}{
	"m": {1, "m"}, "cm": {0.01, "m"}, "mm": {0.001, "m"}, "km": {1000, "m"},
	"ft": {0.3048, "m"}, "in": {0.0254, "m"}, "yd": {0.9144, "m"}, "mi": {1609.344, "m"},
	"nmi": {1852, "m"}, "ftm": {1.8288, "m"},
	"kn": {1852.0 / 3600, "m/s"}, "kmh": {1 / 3.6, "m/s"}, "mph": {0.44704, "m/s"},
	"ms": {1, "m/s"}, "fts": {0.3048, "m/s"},
	"C": {1, "degC"}, "F": {5.0 / 9, "degC"},
}

func labelSI(v float64, unit string) float64 {
	if unit == "F" {
		return (v - 32) * 5 / 9
	}
	return v * labelFactors[unit].factor
}

func loadSentences(t testing.TB) []sentenceCase {
	t.Helper()
	return readLines(t, "sentences.jsonl", func(c *sentenceCase) error { return locateSentence(c) })
}

// readLines reads testdata/name, one JSON object a line, each checked by
// check; a line that does not decode or check fails t, naming it.
func readLines[T any](t testing.TB, name string, check func(*T) error) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		if err := check(&c); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// locateSentence finds each wanted surface in the text, in order, at a
// token boundary.
func locateSentence(c *sentenceCase) error {
	from := 0
	for i := range c.Want {
		w := &c.Want[i]
		at := indexToken(c.Text, w.Surface, from)
		if at < 0 {
			return fmt.Errorf("%s: surface %q not found in %q", c.ID, w.Surface, c.Text)
		}
		w.start = at
		from = at + len(w.Surface)
	}
	return nil
}

// TestSentenceSet checks the labelled set itself: its size and balance,
// both splits in every language and category, and labels whose SI value
// agrees with their value and unit.
func TestSentenceSet(t *testing.T) {
	cases := loadSentences(t)
	lang := map[string]int{}
	split := map[string]bool{}
	for _, c := range cases {
		lang[c.Lang]++
		split[c.Lang+"/"+c.Cat+"/"+c.Split] = true
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
	if len(cases) < 600 || lang["pt"] < lang["en"] {
		t.Errorf("got %d sentences, %d Portuguese, %d English, want at least 600 and half Portuguese", len(cases), lang["pt"], lang["en"])
	}
	for k := range split {
		l, cat, _ := strings.Cut(k, "/")
		cat, sp, _ := strings.Cut(cat, "/")
		if sp == "fresh" {
			continue
		}
		for _, s := range []string{"dev", "heldout"} {
			if !split[l+"/"+cat+"/"+s] {
				t.Errorf("%s/%s: got no %s sentence, want both splits", l, cat, s)
			}
		}
	}
}

// nearSI is the tolerance of the scorer: labels carry six decimals.
func nearSI(got, want float64) bool {
	return math.Abs(got-want) <= 1e-5*math.Max(math.Abs(got), math.Abs(want))+1e-6
}

// sentenceScore tallies one split: per "lang/dimension" key (with "lang/"
// and "/" totals) the gold, predicted and correct quantities, and per
// language the sentences with nothing to find that got a quantity anyway.
type sentenceScore struct {
	tallies  map[string]*tally
	empty    map[string]int // sentences with nothing to find, per language
	falseHit map[string]int // of those, how many got a quantity
	misses   []string
}

// scoreSentences scores Parse on the cases of one split. A prediction is
// correct when it overlaps a gold quantity's span and has its SI unit and
// value: spans may differ on what they include ("minus 8 celsius" or "8
// celsius" is told apart by the value, not the span).
func scoreSentences(cases []sentenceCase, split string) sentenceScore {
	s := sentenceScore{tallies: map[string]*tally{}, empty: map[string]int{}, falseHit: map[string]int{}}
	add := func(lang string, dim Dimension, f func(*tally)) {
		for _, k := range []string{lang + "/" + string(dim), lang + "/", "/"} {
			if s.tallies[k] == nil {
				s.tallies[k] = &tally{}
			}
			f(s.tallies[k])
		}
	}
	for _, c := range cases {
		if c.Split != split {
			continue
		}
		got := Parse(c.Text, Options{Lang: c.Lang})
		used := make([]bool, len(c.Want))
		var wrong []string
		for _, w := range c.Want {
			add(c.Lang, DimensionOf(w.SIUnit), func(t *tally) { t.gold++ })
		}
		for _, g := range got {
			add(c.Lang, g.Dimension, func(t *tally) { t.pred++ })
			hit := false
			for i, w := range c.Want {
				if !used[i] && g.Start < w.start+len(w.Surface) && w.start < g.End &&
					g.SIUnit == w.SIUnit && nearSI(g.SIValue, w.SI) {
					used[i], hit = true, true
					add(c.Lang, g.Dimension, func(t *tally) { t.correct++ })
					break
				}
			}
			if !hit {
				wrong = append(wrong, fmt.Sprintf("extra %q = %s", g.Surface, Canonical(g)))
			}
		}
		for i, w := range c.Want {
			if !used[i] {
				wrong = append(wrong, fmt.Sprintf("missed %q = %s", w.Surface, FormatSI(w.SI, w.SIUnit)))
			}
		}
		if len(c.Want) == 0 {
			s.empty[c.Lang]++
			if len(got) > 0 {
				s.falseHit[c.Lang]++
			}
		}
		if len(wrong) > 0 {
			s.misses = append(s.misses, fmt.Sprintf("%s %q: %s", c.ID, c.Text, strings.Join(wrong, "; ")))
		}
	}
	return s
}

func f1(t tally) float64 {
	p, r := t.precision(), t.recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func (s sentenceScore) table() string {
	keys := make([]string, 0, len(s.tallies))
	for k := range s.tallies {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-12s %5s %5s %7s %9s %7s %6s\n", "lang", "dimension", "gold", "pred", "correct", "precision", "recall", "F1")
	for _, k := range keys {
		lang, dim, _ := strings.Cut(k, "/")
		t := s.tallies[k]
		fmt.Fprintf(&b, "%-4s %-12s %5d %5d %7d %9.3f %7.3f %6.3f\n",
			orAll(lang), orAll(dim), t.gold, t.pred, t.correct, t.precision(), t.recall(), f1(*t))
	}
	for _, lang := range []string{"en", "pt"} {
		if s.empty[lang] == 0 {
			continue // a set of one language (real3.jsonl)
		}
		fmt.Fprintf(&b, "%s: %d of %d sentences with nothing to find got a quantity (%.1f%%)\n",
			lang, s.falseHit[lang], s.empty[lang], 100*ratio(s.falseHit[lang], s.empty[lang]))
	}
	return b.String()
}

type floor struct{ precision, recall, f1 float64 }

// heldoutFloors are the figures Parse must keep on the held-out half, per
// language and overall: a little below what it measured when they were
// set, so a change that loses ground fails.
var heldoutFloors = map[string]floor{
	"en/": {0.97, 0.97, 0.97},
	"pt/": {0.97, 0.97, 0.97},
	"/":   {0.97, 0.97, 0.97},
}

// freshFloors hold the fresh sentences the same way.
var freshFloors = map[string]floor{
	"en/": {0.97, 0.97, 0.97},
	"pt/": {0.97, 0.97, 0.97},
	"/":   {0.97, 0.97, 0.97},
}

// TestSentencesScore reports precision, recall and F1 per language and
// dimension on both halves of sentences.jsonl and holds the held-out half
// to heldoutFloors. Run with -v to see the tables, and with -misses to see
// the development sentences that fail:
//
//	go test ./units -run TestSentencesScore -v
func TestSentencesScore(t *testing.T) {
	cases := loadSentences(t)
	floors := map[string]map[string]floor{"heldout": heldoutFloors, "fresh": freshFloors}
	for _, split := range []string{"dev", "heldout", "fresh"} {
		s := scoreSentences(cases, split)
		t.Logf("%s\n%s", split, s.table())
		if split == "dev" && *showMisses || split == "fresh" && *showFresh {
			t.Logf("%s misses:\n%s", split, strings.Join(s.misses, "\n"))
		}
		for k, floor := range floors[split] {
			got := s.tallies[k]
			if got == nil {
				t.Fatalf("%s %s: no tally", split, k)
			}
			if got.precision() < floor.precision || got.recall() < floor.recall || f1(*got) < floor.f1 {
				t.Errorf("%s %q: got precision %.3f recall %.3f F1 %.3f, want at least %.2f, %.2f, %.2f",
					split, k, got.precision(), got.recall(), f1(*got), floor.precision, floor.recall, floor.f1)
			}
		}
	}
}
