package lexical

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"
)

// TestFoldMatchesTransform: the table-driven fold equals the transform on
// every rune of the table and on pairs of the runes most likely to interact
// (marks, jamo, letters that compose).
func TestFoldMatchesTransform(t *testing.T) {
	for r := range rune(foldTableSize) {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		if got, want := Fold(string(r)), refFold(string(r)); got != want {
			t.Errorf("U+%04X: got %q, want %q", r, got, want)
		}
	}
	var interacting []rune
	for r := range rune(foldTableSize) {
		if unicode.In(r, unicode.M, unicode.Hangul) || r < 0x250 {
			interacting = append(interacting, r)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		s := string([]rune{interacting[rng.IntN(len(interacting))], interacting[rng.IntN(len(interacting))], interacting[rng.IntN(len(interacting))]})
		if got, want := Fold(s), refFold(s); got != want {
			t.Errorf("%+q: got %+q, want %+q", s, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"stop words dropped", "The water of the bay", []string{"water", "bay"}},
		{"accents folded", "Água É fria, ÁGUA", []string{"agua", "fria", "agua"}},
		{"hyphens split", "barra-da-lagoa", []string{"barra", "lagoa"}},
		{"decomposed", "a\u0301gua", []string{"agua"}},
		{"digits kept", "18,5 °C", []string{"18", "5", "c"}},
		{"empty", "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Words(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	for _, text := range corpusTexts(t) {
		if got, want := Words(text), refWords(text); !slices.Equal(got, want) {
			t.Errorf("%.40q: got %q, want %q", text, got, want)
		}
		if got, want := (ApproxTokens{}).Count(text), refApproxTokens(text); got != want {
			t.Errorf("ApproxTokens(%.40q): got %d, want %d", text, got, want)
		}
	}
}

// FuzzFold: on any input, the fast paths agree with the first version.
func FuzzFold(f *testing.F) {
	for _, tt := range tricky {
		f.Add(tt.text)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fold(s), refFold(s); got != want {
			t.Errorf("Fold(%+q): got %+q, want %+q", s, got, want)
		}
		if got, want := Words(s), refWords(s); !slices.Equal(got, want) {
			t.Errorf("Words(%+q): got %q, want %q", s, got, want)
		}
		if got, want := (ApproxTokens{}).Count(s), refApproxTokens(s); got != want {
			t.Errorf("ApproxTokens(%+q): got %d, want %d", s, got, want)
		}
		v, _ := NewBuiltin(64).Embed(t.Context(), []string{s})
		if at := sameBits(v[0], refVector(s, 64)); at >= 0 {
			t.Errorf("Embed(%+q): differs from v1 at %d", s, at)
		}
	})
}

func TestApproxTokens(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"water", 2},                // five letters: two tokens
		{"a, b", 3},                 // a word, a comma, a word
		{"água fria", 2},            // letters beyond ASCII are letters
		{"18,5 °C", 5},              // 18 , 5 ° C
		{"swim\u00a0parallel\t", 3}, // NBSP ends a word
		{"\x00\x7f", 2},             // controls count as marks
		{"\xff\xfe", 2},             // invalid bytes are replacement runes: marks
		{"ondas de 2\u202fm", 5},    // ondas(2) de(1) 2(1) m(1): a narrow no-break space ends a word
	}
	for _, tt := range tests {
		if got := (ApproxTokens{}).Count(tt.text); got != tt.want {
			t.Errorf("ApproxTokens(%+q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
