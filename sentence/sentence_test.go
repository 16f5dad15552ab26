package sentence

import (
	"slices"
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
