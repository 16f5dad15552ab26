package lexical

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tricky are texts that exercise both fold paths and the feature table.
var tricky = []struct{ name, text string }{
	{"empty", ""},
	{"stop words only", "the and of de da e é são"},
	{"ascii", "Rip currents flow away from the shore at up to 2.5 m/s."},
	{"accents", "Água abaixo de 18,5 °C pode causar choque térmico; ÁGUA, água, agua."},
	{"decomposed marks", "A\u0301gua e\u0301 fri\u0301a"},
	{"marks alone", "\u0301\u0308 x\u0301\u0301\u0301y"},
	{"dotted capital I", "İstanbul İİ"},
	{"angstrom and ohm", "5 \u212b, 10 \u2126"},
	{"hangul jamo compose", "\u1100\u1161\u11a8 \uac01"},
	{"spacing mark", "\u0b47\u0b3e \u0b4b"},
	{"cjk and emoji", "海 浪 🌊 waves"},
	{"invalid utf-8", "bad \xc3\x28 byte \xff end"},
	{"real replacement char", "a\ufffdb"},
	{"one-letter words", "a b c x y z 1 2 3"},
	{"repeated", strings.Repeat("wave waves waving ", 200)},
	{"many features", strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789 ", 50) + "zyxwvutsrqponmlkjihgfedcba"},
}

// corpusTexts returns every Markdown file of the shipped corpus and the
// test corpora, whole and paragraph by paragraph.
func corpusTexts(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, root := range []string{"../../corpus", "../../testdata"} {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".txtar") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, string(b))
			out = append(out, strings.Split(string(b), "\n\n")...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func sameBits(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestBuiltinMatchesV1: the vectors equal the first version's bit for bit,
// at the default width and at one that is not a power of two.
func TestBuiltinMatchesV1(t *testing.T) {
	texts := corpusTexts(t)
	for _, tt := range tricky {
		texts = append(texts, tt.text)
	}
	for _, dims := range []int{1024, 300, 8} {
		e := NewBuiltin(dims)
		got, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if at := sameBits(got[i], refVector(text, dims)); at >= 0 {
				t.Errorf("dims %d, text %d %.40q: got a vector differing from v1 at %d", dims, i, text, at)
			}
		}
	}
}

func TestBuiltinEmbed(t *testing.T) {
	e := NewBuiltin(64)
	tests := []struct {
		name  string
		texts []string
	}{
		{"none", nil},
		{"one", []string{"waves"}},
		{"batch with empty", []string{"waves", "", "the", "água"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Embed(context.Background(), tt.texts)
			if err != nil || len(got) != len(tt.texts) {
				t.Fatalf("got %d vectors (%v), want %d", len(got), err, len(tt.texts))
			}
			for i, v := range got {
				if len(v) != 64 || cap(v) != 64 {
					t.Errorf("text %d: got len %d cap %d, want 64 and 64 (appending must not reach the next vector)", i, len(v), cap(v))
				}
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"x"}); err == nil {
		t.Error("cancelled: got no error, want context.Canceled")
	}
}
