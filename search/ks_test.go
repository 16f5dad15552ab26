package search

import (
	"slices"
	"testing"
)

func TestParseKs(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
		wantErr  bool
	}{
		{"the default", "1,3,5,10", []int{1, 3, 5, 10}, false},
		{"spaces and repeats", " 5, 1,5 ", []int{5, 1}, false},
		{"zero", "0,1", nil, true},
		{"not a number", "1,x", nil, true},
		{"empty", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseKs(tt.in)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Errorf("ParseKs(%q): got %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}
