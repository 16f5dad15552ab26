package estimate

import (
	"testing"

	"github.com/ocean-safety/ingest/models"
)

func TestParseRates(t *testing.T) {
	tests := []struct {
		in   string
		want [3]float64
		bad  bool
	}{
		{in: "800", want: [3]float64{800, 0, 800}},
		{in: "800,20", want: [3]float64{800, 20, 800}},
		{in: "800, 20, 3000", want: [3]float64{800, 20, 3000}},
		{in: "800,20,3000,1", bad: true},
		{in: "0", bad: true},
		{in: "-5", bad: true},
		{in: "fast", bad: true},
		{in: "", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseRates(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("ParseRates(%q): got %v, %v; want %v (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

func TestMeanRate(t *testing.T) {
	tests := []struct {
		name string
		in   []models.Rate
		want Rate
	}{
		{"all told", []models.Rate{{Prefill: 100, Decode: 10, PerCall: 2}, {Prefill: 300, Decode: 30, PerCall: 4}}, Rate{Prefill: 200, Decode: 20, Servers: 2, From: "probe"}},
		{"one said nothing", []models.Rate{{Prefill: 100, Decode: 10, PerCall: 2}, {PerCall: 4}}, Rate{PerCall: 3, Servers: 2, From: "probe"}},
	}
	for _, tc := range tests {
		if got := meanRate(tc.in, 2); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
