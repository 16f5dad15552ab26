package buildinfo

import (
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	// A test binary has no VCS settings: the version given, as it is.
	for _, v := range []string{"1.2.3", Dev} {
		if got := Version(v); !strings.HasPrefix(got, v) {
			t.Errorf("Version(%q): got %q, want it to start with %q", v, got, v)
		}
	}
}

func TestPseudoVersion(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"v0.0.0-20261201075336-9dd7f61111dd", true},
		{"v1.2.4-0.20261201075336-9dd7f61111dd", true},
		{"v1.2.3", false},
		{"(devel)", false},
	}
	for _, tt := range tests {
		if got := pseudoVersion.MatchString(tt.v); got != tt.want {
			t.Errorf("%s: got pseudo %v, want %v", tt.v, got, tt.want)
		}
	}
}
