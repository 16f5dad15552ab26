package units

import (
	"strings"
	"testing"
)

// benchText builds about 1 MB of mixed English and Portuguese prose: the
// labelled cases (quantities and distractors) interleaved with plain
// sentences, since real documents are mostly words.
func benchText(b *testing.B) (string, string) {
	b.Helper()
	var texts []struct{ lang, text string }
	for _, c := range loadLabelled(b) {
		texts = append(texts, struct{ lang, text string }{c.Lang, c.Text})
	}
	return mixText(texts)
}

// sentencesText is benchText over testdata/sentences.jsonl, whose
// sentences exercise number words, fractions, compounds and context rules.
func sentencesText(b *testing.B) (string, string) {
	b.Helper()
	var texts []struct{ lang, text string }
	for _, c := range loadSentences(b) {
		texts = append(texts, struct{ lang, text string }{c.Lang, c.Text})
	}
	return mixText(texts)
}

func mixText(texts []struct{ lang, text string }) (string, string) {
	var en, pt strings.Builder
	filler := map[string]string{
		"en": "Swim near a lifeguard post and read the flags before entering the water. ",
		"pt": "Nade perto do posto de salva-vidas e observe as bandeiras antes de entrar na água. ",
	}
	for en.Len()+pt.Len() < 1<<20 {
		for _, c := range texts {
			w := &en
			if c.lang == "pt" {
				w = &pt
			}
			w.WriteString(c.text)
			w.WriteString(" ")
			w.WriteString(filler[c.lang])
			w.WriteString(filler[c.lang])
		}
	}
	return en.String(), pt.String()
}

func benchmarkParse(b *testing.B, en, pt string) {
	b.SetBytes(int64(len(en) + len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(en, Options{Lang: "en"})
		Parse(pt, Options{Lang: "pt"})
	}
}

func BenchmarkParse(b *testing.B) {
	en, pt := benchText(b)
	benchmarkParse(b, en, pt)
}

func BenchmarkParseSentences(b *testing.B) {
	en, pt := sentencesText(b)
	benchmarkParse(b, en, pt)
}
