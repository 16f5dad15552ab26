package lexicon

import "testing"

func BenchmarkOpenFreeDict(b *testing.B) {
	if _, err := OpenFreeDict(FreeDictDir); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		OpenFreeDict(FreeDictDir)
	}
}
