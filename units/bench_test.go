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
	var en, pt strings.Builder
	filler := map[string]string{
		"en": "Swim near a lifeguard post and read the flags before entering the water. ",
		"pt": "Nade perto do posto de salva-vidas e observe as bandeiras antes de entrar na água. ",
	}
	cases := loadLabelled(b)
	for en.Len()+pt.Len() < 1<<20 {
		for _, c := range cases {
			w := &en
			if c.Lang == "pt" {
				w = &pt
			}
			w.WriteString(c.Text)
			w.WriteString(" ")
			w.WriteString(filler[c.Lang])
			w.WriteString(filler[c.Lang])
		}
	}
	return en.String(), pt.String()
}

func BenchmarkParse(b *testing.B) {
	en, pt := benchText(b)
	b.SetBytes(int64(len(en) + len(pt)))
	b.ReportAllocs()
	for b.Loop() {
		Parse(en, Options{Lang: "en"})
		Parse(pt, Options{Lang: "pt"})
	}
}
