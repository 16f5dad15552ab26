package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/internal/recipes"
)

// nodeModulesEnv names the folder where .ci/node.sh installed DuckDB's Node
// package; without it the JavaScript recipe is not run.
const nodeModulesEnv = "INGEST_TEST_NODE_DUCKDB"

// TestConsumerDocsNode runs the JavaScript recipe of docs/consumers.md as
// written, with node, beside a snapshot of the shipped corpus and with
// ingest on the PATH (this test binary, run as the command): five chunks,
// nearest first, each with its lead_in column.
func TestConsumerDocsNode(t *testing.T) {
	t.Parallel()
	modules := os.Getenv(nodeModulesEnv)
	if modules == "" {
		t.Skipf("%s is not set: no @duckdb/node-api to run the JavaScript recipe with (.ci/node.sh test runs it)", nodeModulesEnv)
	}
	rs, err := recipes.Read("../../docs/consumers.md", "node")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if code, _, stderr := runCLI(t.Context(), "", "index", "--corpus", "../../corpus/ocean", "--out", filepath.Join(work, "out", "knowledge"), "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	os.MkdirAll(filepath.Join(work, "consumers"), 0o755)
	view, _ := os.ReadFile("../../consumers/chunks_view.sql")
	os.WriteFile(filepath.Join(work, "consumers", "chunks_view.sql"), view, 0o644)
	bin := t.TempDir()
	self, _ := os.Executable()
	os.WriteFile(filepath.Join(bin, "ingest"), []byte("#!/bin/sh\n"+childEnv+"=1 exec '"+self+"' \"$@\"\n"), 0o755)
	// ES modules resolve packages from the script's folder: the recipe
	// goes beside node_modules.
	script := filepath.Join(modules, "recipe-"+filepath.Base(work)+".mjs")
	if err := os.WriteFile(script, []byte(rs[0].SQL), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(script)
	cmd := exec.Command("node", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("node: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 5 {
		t.Fatalf("got %d lines, want 5 chunks:\n%s", len(lines), out)
	}
	last := 2.0
	for i, line := range lines {
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		score, ok := row["score"].(float64)
		if !ok || score > last || row["text"] == "" {
			t.Errorf("line %d: score %v after %v, text %q: want chunks nearest first", i+1, row["score"], last, row["text"])
		}
		last = score
		if _, has := row["lead_in"]; !has {
			t.Errorf("line %d: no lead_in column: %s", i+1, line)
		}
	}
	if !strings.Contains(lines[0], "rip") {
		t.Errorf("the nearest chunk to a question of rip currents: %s", lines[0])
	}
}
