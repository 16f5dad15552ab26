package forgive

import "testing"

func TestTypedAndValue(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		typed, ok bool
		value     string
	}{
		{"two dashes and a value", []string{"ingest", "index", "--log-format", "json"}, true, true, "json"},
		{"one dash and =", []string{"ingest", "-log-format=text", "x"}, true, true, "text"},
		{"last, no value", []string{"ingest", "--log-format"}, true, true, ""},
		{"a value, not a flag", []string{"ingest", "search", "log-format"}, false, false, ""},
		{"another flag", []string{"ingest", "--log-level", "debug"}, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Typed(tt.args, "log-format"); got != tt.typed {
				t.Errorf("Typed: got %v, want %v", got, tt.typed)
			}
			v, ok := Value(tt.args, "log-format")
			if v != tt.value || ok != tt.ok {
				t.Errorf("Value: got %q, %v; want %q, %v", v, ok, tt.value, tt.ok)
			}
		})
	}
}
