package numeral

import "testing"

func TestScanNumber(t *testing.T) {
	tests := []struct {
		name, text string
		pt         bool
		want       float64
		wantEnd    int
		wantOK     bool
	}{
		{"integer", "42 m", false, 42, 2, true},
		{"en decimal point", "1.5", false, 1.5, 3, true},
		{"pt decimal comma", "1,5", true, 1.5, 3, true},
		{"en decimal comma tolerated", "1,5", false, 1.5, 3, true},
		{"pt decimal point tolerated", "1.5", true, 1.5, 3, true},
		{"pt thousands dot", "1.000", true, 1000, 5, true},
		{"en dot three digits is decimal", "1.000", false, 1, 5, true},
		{"en thousands comma", "1,500", false, 1500, 5, true},
		{"pt comma three digits is decimal", "1,500", true, 1.5, 5, true},
		{"pt thousands and decimal", "1.250,5", true, 1250.5, 7, true},
		{"en thousands and decimal", "1,250.5", false, 1250.5, 7, true},
		{"millions", "1.000.000", true, 1e6, 9, true},
		{"trailing dot is punctuation", "3. Then", false, 3, 1, true},
		{"trailing comma is punctuation", "3, 4", true, 3, 1, true},
		{"version", "1.2.3", false, 0, 5, false},
		{"mixed groups", "1.23,456", true, 0, 8, false},
		{"long first group is decimal", "1000.000", true, 1000, 8, true},
		{"too many groups", "1.000.000.000.000.000.000.000", true, 0, 29, false},
		{"long run", "12345678901234567890", false, 12345678901234567890, 20, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := ScanNumber(tt.text, 0, tt.pt)
			if ok != tt.wantOK || n.End != tt.wantEnd {
				t.Fatalf("got ok=%v end=%d, want ok=%v end=%d", ok, n.End, tt.wantOK, tt.wantEnd)
			}
			if ok {
				if got := n.Value(tt.text); got != tt.want {
					t.Errorf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}
