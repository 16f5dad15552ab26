// Package slowtest is the slow group of tests: the end-to-end cases that
// take seconds of a machine each (the command killed for real at many
// points, the OpenTelemetry corpora indexed whole), kept apart so the
// tests a developer runs often stay fast. A default go test ./... skips
// them, each saying how to run it; .ci/run runs them all
// (INGEST_TEST_SLOW=1), and go test -run runs those it names.
package slowtest

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Env, set to 1, turns the slow group on.
const Env = "INGEST_TEST_SLOW"

// Mark makes t one of the slow group: it is skipped unless Env is 1 or the
// tests were picked by name (-run). why says what makes it slow.
func Mark(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(Env) == "1" || picked() {
		return
	}
	t.Skipf("slow (%s): run it with go test -run '%s' %s, or the whole group with %s=1 go test ./...", why, pattern(t.Name()), pkg(), Env)
}

// picked reports whether go test was given -run: whoever names tests wants
// the slow ones that match too.
func picked() bool {
	f := flag.Lookup("test.run")
	return f != nil && f.Value.String() != ""
}

// pattern is the -run pattern that picks the test name and nothing else.
func pattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// pkg is the test's package as go test names it from the module's root
// (go test runs a package's tests in its folder).
func pkg() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, dir)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		up := filepath.Dir(root)
		if up == root {
			return "."
		}
		root = up
	}
}
