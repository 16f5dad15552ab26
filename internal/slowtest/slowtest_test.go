package slowtest

import "testing"

func TestPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, want string }{
		{"TestCrashSafety", "^TestCrashSafety$"},
		{"TestOneWindow/otel-en", "^TestOneWindow$/^otel-en$"},
		{"TestX/a_b.c+", `^TestX$/^a_b\.c\+$`},
	} {
		if got := pattern(tc.name); got != tc.want {
			t.Errorf("pattern(%q): got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPkg(t *testing.T) {
	t.Parallel()
	if got, want := pkg(), "./internal/slowtest"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
