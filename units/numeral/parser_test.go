package numeral

import "testing"

// TestParserAt holds the boundary units reads numerals through: At at an
// offset, in digits, a fraction character or words of the text's language.
func TestParserAt(t *testing.T) {
	tests := []struct {
		name, text string
		pt         bool
		at         int
		want       Numeral
		wantOK     bool
	}{
		{"pt thousands dot", "1.000 km", true, 0, Numeral{Start: 0, End: 5, Value: 1000}, true},
		{"en decimal", "1.5 m", false, 0, Numeral{Start: 0, End: 3, Value: 1.5}, true},
		{"mixed number", "3 1/4 miles", false, 0, Numeral{Start: 0, End: 5, Value: 3.25, Fraction: true, Inchy: true}, true},
		{"vulgar fraction", "½ mile", false, 0, Numeral{Start: 0, End: 2, Value: 0.5, Fraction: true, Inchy: true}, true},
		{"power of ten", "3×10⁸ m/s", false, 0, Numeral{Start: 0, End: len("3×10⁸"), Value: 3e8}, true},
		{"glued k", "ran a 5k", false, 6, Numeral{Start: 6, End: 8, Value: 5, Kilo: true}, true},
		{"en words", "forty-two feet", false, 0, Numeral{Start: 0, End: 9, Value: 42, Words: true, Integer: true}, true},
		{"pt words", "cento e vinte graus", true, 0, Numeral{Start: 0, End: 13, Value: 120, Words: true, Integer: true}, true},
		{"pt word in English", "cinco metros", false, 0, Numeral{}, false},
		{"date", "12/05/2024", false, 0, Numeral{}, false},
		{"past the end", "5", false, 1, Numeral{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser(tt.text, tt.pt)
			got, ok := p.At(tt.at)
			if ok != tt.wantOK || ok && got != tt.want {
				t.Errorf("got %+v, %v, want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestParserWord holds Word: the end of any word, a numeral only where a
// number in words opens.
func TestParserWord(t *testing.T) {
	tests := []struct {
		name, text string
		at         int
		wantEnd    int
		wantOK     bool
	}{
		{"number word", "twelve feet", 0, 6, true},
		{"other word", "swell of", 0, 5, false},
		{"non-ASCII letters", "ondulação", 0, len("ondulação"), false},
		{"middle of a token", "v1one", 2, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser(tt.text, false)
			_, end, ok := p.Word(tt.at)
			if end != tt.wantEnd || ok != tt.wantOK {
				t.Errorf("got end %d, ok %v, want end %d, ok %v", end, ok, tt.wantEnd, tt.wantOK)
			}
		})
	}
}

// TestStanding holds what before a digit makes it no number of its own.
func TestStanding(t *testing.T) {
	tests := []struct {
		name, text string
		at         int
		want       Standing
	}{
		{"start", "5 m", 0, Alone},
		{"after a space", "a 5 m", 2, Alone},
		{"identifier", "SC-401", 3, NotNumber},
		{"port", "localhost:4317", 10, NotNumber},
		{"money", "R$ 5", 3, NotNumber},
		{"plus", "+5°", 1, AfterPlus},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewParser(tt.text, false)
			if got := p.Standing(tt.at); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}
