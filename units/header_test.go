package units

import "testing"

func TestUnitFromHeader(t *testing.T) {
	tests := []struct{ header, want string }{
		{"Água (°C)", "°C"},
		{"Wind (kn)", "kn"},
		{"Altura (m)", "m"},
		{"Vento [km/h]", "km/h"},
		{"Water temperature (ºC)", "ºC"},
		{"Height in metres", "metres"},
		{"Altura em metros", "metros"},
		{"Vento, nós", "nós"},
		{"Swell (ft) ", "ft"},
		{"Praia (SC)", ""},
		{"Beach", ""},
		{"Notes (see below)", ""},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			if got := UnitFromHeader(tt.header); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
