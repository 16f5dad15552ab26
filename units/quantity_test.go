package units

import "testing"

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, text, lang string
		want             string
	}{
		{"feet", "5 ft", "en", "1.52 m"},
		{"knots", "20 kn", "en", "10.29 m/s"},
		{"celsius", "18 °C", "pt", "18 degC"},
		{"fahrenheit", "68 °F", "en", "20 degC"},
		{"negative", "−2 °C", "en", "-2 degC"},
		{"inch keeps three digits", "1 in.", "en", "0.0254 m"},
		{"centimetres", "30 cm", "pt", "0.3 m"},
		{"kilometres", "1.000 km", "pt", "1000000 m"},
		{"km per hour", "36 km/h", "pt", "10 m/s"},
		{"mph", "10 mph", "en", "4.47 m/s"},
		{"nautical mile", "1 nmi", "en", "1852 m"},
		{"zero", "0 °C", "pt", "0 degC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs := Parse(tt.text, Options{Lang: tt.lang})
			if len(qs) != 1 {
				t.Fatalf("got %d quantities in %q, want 1", len(qs), tt.text)
			}
			if got := Canonical(qs[0]); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatSI(t *testing.T) {
	tests := []struct {
		v    float64
		unit string
		want string
	}{
		{1.524, "m", "1.52 m"},
		{-0.0001, "degC", "-0.0001 degC"},
		{-0.004, "", "-0.004"},
		{0, "m/s", "0 m/s"},
		{0.00049999, "m", "0.0005 m"},
		{999.999, "m", "1000 m"},
	}
	for _, tt := range tests {
		if got := FormatSI(tt.v, tt.unit); got != tt.want {
			t.Errorf("FormatSI(%v, %q): got %q, want %q", tt.v, tt.unit, got, tt.want)
		}
	}
}

func TestQuantityFields(t *testing.T) {
	qs := Parse("Ondas de 1,5 m e vento de 20 nós.", Options{Lang: "pt"})
	want := []Quantity{
		{Surface: "1,5 m", Start: 9, End: 14, Value: 1.5, Unit: "m", Dimension: Length, SIValue: 1.5, SIUnit: "m", EquivalentOf: -1},
		{Surface: "20 nós", Start: 26, End: 33, Value: 20, Unit: "nós", Dimension: Speed, SIValue: 20 * 1852.0 / 3600, SIUnit: "m/s", EquivalentOf: -1},
	}
	if len(qs) != len(want) {
		t.Fatalf("got %d quantities, want %d", len(qs), len(want))
	}
	for i := range want {
		if qs[i] != want[i] {
			t.Errorf("[%d] got %+v, want %+v", i, qs[i], want[i])
		}
	}
}
