package sentence

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"two sentences", "Swim parallel. Then return.", []string{"Swim parallel.", "Then return."}},
		{"abbreviation", "Call Dr. Silva now. He helps.", []string{"Call Dr. Silva now.", "He helps."}},
		{"decimal", "Waves of 1.5 metres. Stay out.", []string{"Waves of 1.5 metres.", "Stay out."}},
		{"a list number opens its item", "5. Back in the terminal, you see traces. Then stop.", []string{"5. Back in the terminal, you see traces.", "Then stop."}},
		{"a number ending a sentence", "The answer is 3. Next comes four.", []string{"The answer is 3.", "Next comes four."}},
		{"typographic closing quotes", "He said “Stop.” Then he swam.", []string{"He said “Stop.”", "Then he swam."}},
		{"a closing single quote", "She called it ‘the pit.’ Nobody laughed.", []string{"She called it ‘the pit.’", "Nobody laughed."}},
		{"guillemets", "O salva-vidas gritou «Saiam!» Todos saíram.", []string{"O salva-vidas gritou «Saiam!»", "Todos saíram."}},
		{"straight quotes and a bracket", `He said "stop." (Twice.) Then left.`, []string{`He said "stop."`, "(Twice.)", "Then left."}},
		{"an abbreviation in quotes", "Ask “Dr.” Silva. He knows.", []string{"Ask “Dr.” Silva.", "He knows."}},
		{"an apostrophe is no initial", "I don't. Then I do.", []string{"I don't.", "Then I do."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range Split(tt.text) {
				got = append(got, tt.text[s.Start:s.End])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFirst: First is the first of Split's sentences, on one line, as
// written, though it reads no further than that sentence.
func TestFirst(t *testing.T) {
	for _, text := range []string{
		"", "  \n ", "Swim parallel. Then return.", "- Call Dr. Silva now.\n  He helps.", "> Waves of 1.5\n> metres. Stay out.",
		"5. Back in the terminal, you see traces. Then stop.", "no terminator at all  ", "Três frases… Uma. Duas!",
		"-5 °C water is dangerous. Stay out.", "#1 rule: never swim alone.", "`app.py` starts the server. Then run it.", "+2 m above the mean.",
	} {
		want := ""
		if ss := Split(text); len(ss) > 0 {
			want = strings.Join(strings.Fields(text[ss[0].Start:ss[0].End]), " ")
		}
		if got := First(text); got != want {
			t.Errorf("First(%q): got %q, want %q", text, got, want)
		}
	}
	// The sign, the hash and the backtick are the sentence's: never trimmed.
	for text, want := range map[string]string{
		"-5 °C water is dangerous. Stay out.":      "-5 °C water is dangerous.",
		"#1 rule: never swim alone.":               "#1 rule: never swim alone.",
		"`app.py` starts the server. Then run it.": "`app.py` starts the server.",
	} {
		if got := First(text); got != want {
			t.Errorf("First(%q): got %q, want %q", text, got, want)
		}
	}
}

// BenchmarkFirst: the first sentence of a long chunk costs that sentence.
func BenchmarkFirst(b *testing.B) {
	text := strings.Repeat("Waves above 1.5 m are dangerous for beginners, e.g. on the east coast. ", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		First(text)
	}
}

// BenchmarkSplit: prose with decimals, abbreviations and lists, as chunks hold it.
func BenchmarkSplit(b *testing.B) {
	text := strings.Repeat("Waves above 1.5 m are dangerous, e.g. on the east coast. Call Dr. Silva at 3 p.m. today! Se for pego, nade paralelo à praia (aprox. 50 m). ", 100)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Split(text)
	}
}

func TestMarkerLen(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{"- item", 2}, {"* item", 2}, {"+\titem", 2}, {"12. Step", 4}, {"3) Step", 3}, {"-", 1}, {"7.", 2},
		{"-5 °C water", 0}, {"1.5 m waves", 0}, {"**bold**", 0}, {"#1 rule", 0}, {"1234567890. too long", 0}, {"", 0}, {"text", 0},
	}
	for _, tt := range tests {
		if got := MarkerLen(tt.line); got != tt.want {
			t.Errorf("MarkerLen(%q): got %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestAround(t *testing.T) {
	tests := []struct {
		name, text, of string
		hard           bool
		want           string
	}{
		{"between two sentences", "Swim near a lifeguard. Waves above 1.5 m are dangerous. Stay out.", "1.5 m", false, "Waves above 1.5 m are dangerous."},
		{"an abbreviation is no end", "Ventos de aprox. 25 nós são perigosos. Fique fora.", "25 nós", false, "Ventos de aprox. 25 nós são perigosos."},
		{"a soft wrap", "Waves above\n1.5 m are dangerous.", "1.5 m", false, "Waves above\n1.5 m are dangerous."},
		{"a list item is a block", "Never swim when:\n- waves are above 2 m\n- it is dark", "2 m", false, "- waves are above 2 m"},
		{"a hard break", "Mês: Janeiro\nÁgua: 24 °C\nAr: 27 °C", "24 °C", true, "Água: 24 °C"},
		{"a blank line", "Intro.\n\nAbove 20 knots, stay out", "20 knots", false, "Above 20 knots, stay out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := strings.Index(tt.text, tt.of)
			s, e := Around(tt.text, i, i+len(tt.of), tt.hard)
			if got := tt.text[s:e]; strings.TrimSpace(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
