package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLogs: with --log-format json every line on stderr is a JSON
// object: each diagnostic a record with its path, line, code and severity,
// the summary one record, an error one record with the exit code; on the
// shipped fixtures and, when ../shared is here, a real otel run.
func TestJSONLogs(t *testing.T) {
	bad := badCorpus(t)
	os.WriteFile(filepath.Join(bad, "untitled.md"), []byte("---\nsource: https://example.org/u\n---\n\nWaves break on the bar.\n"), 0o644)
	type run struct {
		name     string
		args     []string
		env      map[string]string
		want     int
		diags    int // at least this many diagnostic records
		summary  bool
		errorMsg string // a record of level ERROR holding this
	}
	runs := []run{
		{name: "a partial run", args: []string{"index", "--corpus", bad, "--out", filepath.Join(t.TempDir(), "s"), "--log-format", "json", "--log-level", "info"}, want: exitPartial, diags: 2, summary: true},
		{name: "a publish with --diff", args: []string{"index", "--corpus", bad, "--publish", filepath.Join(t.TempDir(), "p"), "--diff", "--log-format=json"}, want: exitPartial, diags: 2, summary: true},
		{name: "strict", args: []string{"index", "--corpus", bad, "--out", filepath.Join(t.TempDir(), "s"), "--strict", "--log-format", "json"}, want: exitFailed, diags: 2, errorMsg: "strict mode"},
		{name: "a usage error", args: []string{"index", "--wrokers", "2", "--log-format", "json"}, want: exitUsage, errorMsg: "did you mean --workers?"},
		{name: "from the environment", args: []string{"index", "--corpus", bad}, env: map[string]string{"INGEST_LOG_FORMAT": "json"}, want: exitUsage, errorMsg: "needs --corpus and --out"},
	}
	if _, err := os.Stat(otelCorpus); err == nil && !testing.Short() {
		cfg := filepath.Join(t.TempDir(), "otel.yaml")
		os.WriteFile(cfg, []byte(otelConfig), 0o644)
		runs = append(runs, run{name: "otel pt", args: []string{"index", "--corpus", filepath.Join(otelCorpus, "pt"), "--config", cfg, "--out", filepath.Join(t.TempDir(), "otel"),
			"--log-format", "json", "--log-level", "info"}, want: exitOK, diags: 20, summary: true})
	} else {
		t.Logf("%s is not here, or -short: the otel run is skipped", otelCorpus)
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			for k, v := range r.env {
				t.Setenv(k, v)
			}
			code, _, stderr := runCLI(context.Background(), "", r.args...)
			if code != r.want {
				t.Fatalf("got exit %d, want %d:\n%s", code, r.want, stderr)
			}
			diags, summaries, errs := 0, 0, 0
			for i, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("stderr line %d is not a JSON object: %q (%v)", i+1, line, err)
				}
				if rec["time"] == nil || rec["level"] == nil || rec["msg"] == nil {
					t.Errorf("line %d: got %v, want time, level and msg", i+1, rec)
				}
				switch rec["msg"] {
				case "diagnostic":
					diags++
					for _, k := range []string{"path", "line", "code", "severity", "message"} {
						if rec[k] == nil {
							t.Errorf("diagnostic record without %s: %s", k, line)
						}
					}
				case "run summary":
					summaries++
					if s, ok := rec["summary"].(map[string]any); !ok || s["counts"] == nil {
						t.Errorf("the summary record holds no counts: %s", line)
					}
				}
				if rec["level"] == "ERROR" && strings.Contains(rec["msg"].(string), r.errorMsg) && r.errorMsg != "" {
					errs++
					if rec["exit_code"] != float64(r.want) {
						t.Errorf("error record: exit_code %v, want %d", rec["exit_code"], r.want)
					}
				}
			}
			if diags < r.diags {
				t.Errorf("got %d diagnostic records, want at least %d:\n%s", diags, r.diags, stderr)
			}
			if want := map[bool]int{true: 1}[r.summary]; summaries != want {
				t.Errorf("got %d summary records, want %d", summaries, want)
			}
			if r.errorMsg != "" && errs != 1 {
				t.Errorf("got %d error records holding %q, want 1:\n%s", errs, r.errorMsg, stderr)
			}
		})
	}
}
