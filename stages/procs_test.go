package stages

import (
	"runtime"
	"testing"
)

func TestLimitProcs(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	tests := []struct {
		name    string
		workers int
		want    int // GOMAXPROCS while limited
	}{
		{"no limit", 0, before},
		{"more workers than cores", before + 1, before},
		{"one core", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore := LimitProcs(tt.workers)
			if got := runtime.GOMAXPROCS(0); got != tt.want {
				t.Errorf("got GOMAXPROCS %d, want %d", got, tt.want)
			}
			restore()
			if got := runtime.GOMAXPROCS(0); got != before {
				t.Errorf("after restore: got GOMAXPROCS %d, want %d", got, before)
			}
		})
	}
}
