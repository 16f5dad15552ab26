package settings

import (
	"errors"
	"slices"
	"sort"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/ocean-safety/ingest/schema"
)

// DiagnosticsConfig says which diagnostics a run accepts as they are, as a
// linter's ignore lists do (ruff's --ignore and per-file-ignores): an
// ignored diagnostic is still in diagnostics.jsonl, marked ignored, but is not
// printed one by one and does not fail --strict. Errors are never ignored:
// they reject their document whatever the lists say.
type DiagnosticsConfig struct {
	// Ignore are codes ignored everywhere (--ignore CODE).
	Ignore []string `yaml:"ignore"`
	// Paths are codes ignored in the documents a doublestar glob of the
	// corpus-relative path matches ("blog/**": [table-in-prose]); "*"
	// stands for every code.
	Paths map[string][]string `yaml:"paths"`
}

// Validate checks every code is a name and every glob a glob.
func (c DiagnosticsConfig) Validate() error {
	var errs []error
	for _, code := range c.Ignore {
		if code == "" || code == "*" {
			errs = append(errs, schema.Setting("diagnostics.ignore", "%q: want a diagnostic's code (as printed in [brackets]); a path's list takes \"*\"", code))
		}
	}
	globs := make([]string, 0, len(c.Paths))
	for g := range c.Paths {
		globs = append(globs, g)
	}
	sort.Strings(globs)
	for _, g := range globs {
		if !doublestar.ValidatePattern(g) {
			errs = append(errs, schema.Setting("diagnostics.paths", "%q is not a valid glob", g))
		}
		if slices.Contains(c.Paths[g], "") {
			errs = append(errs, schema.Setting("diagnostics.paths", "%q: an empty code", g))
		}
	}
	return errors.Join(errs...)
}

// Ignores reports whether d is one the run accepts: a warning or info whose
// code is ignored everywhere or under its path.
func (c DiagnosticsConfig) Ignores(d schema.Diagnostic) bool {
	if d.Severity == schema.SeverityError {
		return false
	}
	if slices.Contains(c.Ignore, d.Code) {
		return true
	}
	for g, codes := range c.Paths {
		if slices.Contains(codes, d.Code) || slices.Contains(codes, "*") {
			if ok, _ := doublestar.Match(g, d.Path); ok {
				return true
			}
		}
	}
	return false
}

// Mark sets each diagnostic's Ignored by c, in place, and returns ds.
func (c DiagnosticsConfig) Mark(ds []schema.Diagnostic) []schema.Diagnostic {
	for i := range ds {
		ds[i].Ignored = c.Ignores(ds[i])
	}
	return ds
}
