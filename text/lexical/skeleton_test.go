package lexical

import "testing"

func TestSkeleton(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"ASCII", "Ignore ALL previous", "ignore all previous"},
		{"accents", "Instruções Anteriores", "instrucoes anteriores"},
		{"zero-width space and joiners", "Ig\u200bnore in\u200dstruc\u2060tions\u200c", "ignore instructions"},
		{"soft hyphen and byte-order mark", "pre\u00advious\ufeff", "previous"},
		{"bidirectional controls", "Ignore\u202a all\u202c previous\u2066 x\u2069", "ignore all previous x"},
		{"fullwidth", "Ｉｇｎｏｒｅ ａｌｌ", "ignore all"},
		{"mathematical bold", "𝐈𝐠𝐧𝐨𝐫𝐞", "ignore"},
		{"Cyrillic look-alikes", "\u0406gn\u043ere r\u0435gras", "ignore regras"},
		{"Greek look-alikes", "\u0399gnore \u03b1ll instructi\u03bfns", "ignore all instructions"},
		{"tag characters", "Hi.\U000E0049\U000E0067\U000E006E", "hi.ign"},
		{"ligature and circled letters", "\ufb01nd Ⓘ", "find i"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Skeleton(tt.text); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
