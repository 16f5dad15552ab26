package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestLangOfRealSentences: the language of single sentences nobody here
// wrote (units/testdata/real.jsonl: Debian and npm documentation in English
// and its pt-BR translations, one sentence each), where one sentence is
// all a page has. Measured when the accented words began to count (a
// page's short prose says Portuguese by them): 95 → 127 right, 2 → 2
// wrong (both English sentences left untranslated in a Portuguese page);
// held at that.
func TestLangOfRealSentences(t *testing.T) {
	f, err := os.Open("../units/testdata/real.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	right, wrong, none := 0, 0, 0
	for s.Scan() {
		var l struct{ Lang, Text string }
		if err := json.Unmarshal(s.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		switch g, ok := detectLang(l.Text); {
		case !ok:
			none++
		case string(g) == l.Lang:
			right++
		default:
			wrong++
			t.Logf("labelled %s, read as %s: %s", l.Lang, g, l.Text)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d sentences: %d right, %d wrong, %d undecided", right+wrong+none, right, wrong, none)
	if right < 127 || wrong > 2 {
		t.Errorf("%d right, %d wrong: want at least 127 right and at most 2 wrong", right, wrong)
	}
}
