package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestDocsNameTheCodesVersions: README.md and docs/ name the versions a run
// writes as the code does: the Parquet schema (chunks.parquet's "schema N",
// the consumers' check of ingest.schema_version), the offline header
// writer and embedder, the prompt. A bump without the docs fails here,
// naming the file and line.
func TestDocsNameTheCodesVersions(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md", "../../corpus/README.md")
	schema, _ := strconv.Atoi(artifacts.SchemaVersion)
	named := []struct {
		what string
		re   *regexp.Regexp
		want string
	}{
		{"the extractive writer", regexp.MustCompile(`extractive-v\d+`), extractive.New(200).Name()},
		{"the prompt", regexp.MustCompile(`prompt-v\d+`), prompt.PromptVersion},
		{"the built-in embedder", regexp.MustCompile(`builtin-hash-v\d+`), lexical.NewBuiltin(1024).Name()},
		{"the Parquet schema", regexp.MustCompile(`chunks\.parquet\x60? \(schema \d+`), fmt.Sprintf("schema %d", schema)},
		{"the consumers' schema check", regexp.MustCompile(`ingest\.schema_version"\] == b"\d+"`), fmt.Sprintf(`b"%d"`, schema)},
	}
	anySchema := regexp.MustCompile(`\bschema (\d+)\b`)
	seen := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			at := fmt.Sprintf("%s:%d", strings.TrimPrefix(f, "../../"), i+1)
			for _, n := range named {
				for _, m := range n.re.FindAllString(line, -1) {
					seen[n.what]++
					if !strings.Contains(m, n.want) {
						t.Errorf("%s: got %q for %s, want %s (the code's)", at, m, n.what, n.want)
					}
				}
			}
			for _, m := range anySchema.FindAllStringSubmatch(line, -1) {
				if v := m[1]; !artifacts.ReadsSchema(v) {
					t.Errorf("%s: got %q, a Parquet schema this build neither writes nor reads (it writes %d)", at, m[0], schema)
				}
			}
		}
	}
	for _, n := range named {
		if seen[n.what] == 0 {
			t.Errorf("the docs never name %s (%s): the check reads nothing", n.what, n.want)
		}
	}
}
