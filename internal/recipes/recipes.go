// Package recipes reads the tested recipes out of docs/consumers.md: a
// fenced block preceded by a line "<!-- test: ENGINE [want=N] -->", so
// the documentation's SQL is the SQL the tests run.
package recipes

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Recipe is one tested block of the consumer documentation.
type Recipe struct {
	Engine string // duckdb | pgvector
	Line   int    // of the marker, for messages
	SQL    string
	Want   *int // the single value the query must return, when the marker says want=N
}

// Read returns the recipes of one engine in the file at path.
func Read(path, engine string) ([]Recipe, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(b), "\n")
	var out []Recipe
	for i := 0; i < len(lines); i++ {
		marker, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "<!-- test:")
		if !ok {
			continue
		}
		fields := strings.Fields(strings.TrimSuffix(marker, "-->"))
		if len(fields) == 0 || fields[0] != engine {
			continue
		}
		r := Recipe{Engine: engine, Line: i + 1}
		for _, f := range fields[1:] {
			if v, ok := strings.CutPrefix(f, "want="); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %q: want a number", path, i+1, f)
				}
				r.Want = &n
			}
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			return nil, fmt.Errorf("%s:%d: a test marker must stand right above a fenced block", path, i+1)
		}
		var sql []string
		for i += 2; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			sql = append(sql, lines[i])
		}
		r.SQL = strings.Join(sql, "\n")
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s recipe", path, engine)
	}
	return out, nil
}

// Statements splits a recipe into its statements (one per ";" at a line's end).
func (r Recipe) Statements() []string {
	var out []string
	for _, s := range strings.SplitAfter(r.SQL, ";\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
