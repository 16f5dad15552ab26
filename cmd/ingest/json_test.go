package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/internal/golden"
)

// TestJSONOutputs pins the shapes of the --json outputs (documented in
// README.md): index, plan, inspect and verify, with what changes from run to
// run (times, run ids, paths, hashes of a build) replaced by placeholders.
func TestJSONOutputs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	snap := filepath.Join(root, "snap")
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"index", []string{"index", "--corpus", fixtureCorpus, "--out", snap, "--json"}, exitOK},
		{"index-republish", []string{"index", "--corpus", fixtureCorpus, "--out", snap, "--json"}, exitOK},
		{"plan", []string{"index", "--corpus", fixtureCorpus, "--out", snap, "--json", "--plan"}, exitOK},
		{"inspect", []string{"inspect", "--json", snap}, exitOK},
		{"verify", []string{"verify", "--json", snap}, exitOK},
		{"index-usage-error", []string{"index", "--corpus", filepath.Join(root, "nope"), "--out", snap, "--json"}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.want {
				t.Fatalf("got exit %d, want %d: %s", code, tt.want, stderr)
			}
			var v any
			if err := json.Unmarshal([]byte(stdout), &v); err != nil {
				t.Fatalf("stdout is not one JSON document: %v\n%s", err, stdout)
			}
			var b strings.Builder
			enc := json.NewEncoder(&b)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			enc.Encode(scrub(v, root))
			golden.Check(t, filepath.Join("..", "..", "testdata", "cli", tt.name+".json"), []byte(b.String()))
		})
	}
}

// volatile are the keys whose values change from run to run.
var volatile = map[string]bool{"seconds": true, "run_id": true, "created_at": true, "build_id": true, "tool_version": true,
	"input_fingerprint": true, "chunks_sha256": true, "sha256": true, "trace_id": true, "bytes": true}

// runIDs are run ids and snapshot names, which carry the time.
var runIDs = regexp.MustCompile(`\d{8}T\d{6}Z-[0-9a-f]{12,16}`)

// scrub replaces volatile values with "<key>" and the temporary root with <tmp>.
func scrub(v any, root string) any {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if volatile[k] {
				if _, isMap := v[k].(map[string]any); !isMap {
					v[k] = "<" + k + ">"
					continue
				}
			}
			v[k] = scrub(v[k], root)
		}
		return v
	case []any:
		for i := range v {
			v[i] = scrub(v[i], root)
		}
		return v
	case string:
		return runIDs.ReplaceAllString(strings.ReplaceAll(v, root, "<tmp>"), "<time-id>")
	}
	return v
}
