package thresholds

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// limitCase is one sentence of testdata/limits.txt or bounds.txt and the
// thresholds it states, none for a measurement, a piece of history or a
// comparison.
type limitCase struct {
	file string
	line int
	lang schema.Lang
	want []schema.Threshold // comparator, values and SI unit only
	text string
}

func loadLimits(t *testing.T, name string) []limitCase {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []limitCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " | ", 3)
		if len(parts) != 3 {
			t.Fatalf("%s:%d: got %d fields, want lang | thresholds | sentence", name, n, len(parts))
		}
		c := limitCase{file: name, line: n, lang: schema.Lang(parts[0]), text: parts[2]}
		if parts[1] != "-" {
			for _, w := range strings.Split(parts[1], "; ") {
				th, err := parseLimit(w)
				if err != nil {
					t.Fatalf("%s:%d: %v", name, n, err)
				}
				c.want = append(c.want, th)
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// parseLimit reads "above 2 m" or "between 15-18 degC", optionally after a
// subject: "wave_height above 2 m".
func parseLimit(s string) (schema.Threshold, error) {
	f := strings.Fields(s)
	var th schema.Threshold
	if len(f) == 4 {
		th.Subject, f = f[0], f[1:]
	}
	if len(f) != 3 {
		return th, fmt.Errorf("threshold %q: want [subject] comparator value unit", s)
	}
	th.Comparator, th.SIUnit = f[0], f[2]
	lo, hi, isRange := strings.Cut(f[1], "-")
	var err error
	if th.Value, err = strconv.ParseFloat(lo, 64); err != nil {
		return th, err
	}
	if isRange {
		if th.Value2, err = strconv.ParseFloat(hi, 64); err != nil {
			return th, err
		}
	}
	return th, nil
}

// sameLimit compares within 0.1% (the labels carry three decimals), and
// the subject where the label names one.
func sameLimit(got, want schema.Threshold) bool {
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-3*math.Max(math.Abs(a), math.Abs(b))+1e-9 }
	return (want.Subject == "" || got.Subject == want.Subject) && got.Comparator == want.Comparator && got.SIUnit == want.SIUnit &&
		close(got.Value, want.Value) && close(got.Value2, want.Value2)
}

// limitScore counts, per language, the thresholds stated and found, the
// sentences stating none that got a proposal, and the proposals that match
// nothing stated.
type limitScore struct {
	stated, found, quiet, falseSentences, extra int
	misses                                      []string
}

func scoreLimits(cases []limitCase) map[schema.Lang]*limitScore {
	out := map[schema.Lang]*limitScore{}
	for _, c := range cases {
		s := out[c.lang]
		if s == nil {
			s = &limitScore{}
			out[c.lang] = s
		}
		got := extract(chunkOf(c.text, c.lang))
		s.stated += len(c.want)
		used := make([]bool, len(got))
		for _, w := range c.want {
			hit := false
			for i, g := range got {
				if !used[i] && sameLimit(g, w) {
					used[i], hit = true, true
					break
				}
			}
			if hit {
				s.found++
			} else {
				s.misses = append(s.misses, fmt.Sprintf("%s:%d: missed %s %s %v %v %s in %q", c.file, c.line, w.Subject, w.Comparator, w.Value, w.Value2, w.SIUnit, c.text))
			}
		}
		for i, g := range got {
			if !used[i] {
				s.extra++
				s.misses = append(s.misses, fmt.Sprintf("%s:%d: proposed %s %s %q in %q", c.file, c.line, g.Subject, g.Comparator, g.Surface, c.text))
			}
		}
		if len(c.want) == 0 {
			s.quiet++
			if len(got) > 0 {
				s.falseSentences++
			}
		}
	}
	return out
}

// TestLimitsScore holds the extractor to the sentences of limits.txt (bounds
// before the number, measurements, history, comparisons) and bounds.txt
// (ranges and bounds after the number, issue 24): in each it finds the
// limits stated and proposes almost nothing from sentences that state none.
//
//	go test ./thresholds -run TestLimitsScore -v
func TestLimitsScore(t *testing.T) {
	for _, file := range []struct {
		name                 string
		missFloor, falseCeil int
	}{
		// 38 of 38 found and no false proposal when set.
		{"limits.txt", 1, 2},
		// 74 of 76 found and no false proposal when set (34 of 56 and 1 false
		// before issue 24's rules). The two misses name no subject: "close
		// the beach to swimmers at 1.5 m and above", "paddle out at 8 ft or
		// more" are waves to a reader, but the subject comes from the
		// sentence's words.
		{"bounds.txt", 2, 1},
	} {
		t.Run(file.name, func(t *testing.T) {
			scores := scoreLimits(loadLimits(t, file.name))
			var all limitScore
			for _, lang := range []schema.Lang{schema.LangEN, schema.LangPT} {
				s := scores[lang]
				t.Logf("%s: found %d of %d stated thresholds; %d of %d sentences stating none got a proposal; %d proposals match nothing stated",
					lang, s.found, s.stated, s.falseSentences, s.quiet, s.extra)
				all.stated += s.stated
				all.found += s.found
				all.falseSentences += s.falseSentences
				all.extra += s.extra
				for _, m := range s.misses {
					t.Log(m)
				}
			}
			if all.found < all.stated-file.missFloor || all.falseSentences > file.falseCeil {
				t.Errorf("got %d of %d thresholds found and %d false proposals, want at most %d missed and %d false",
					all.found, all.stated, all.falseSentences, file.missFloor, file.falseCeil)
			}
		})
	}
}
