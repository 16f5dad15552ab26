package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oceanSnapshot indexes the shipped corpus once for the search and eval tests.
func oceanSnapshot(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", "../../corpus/ocean", "--out", out, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	return out
}

func TestSearchCommand(t *testing.T) {
	t.Parallel()
	snap := oceanSnapshot(t)
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStdout string
		wantStderr string
	}{
		{"text", []string{"search", "--snapshot", snap, "How do I escape a rip current?"}, exitOK, "rip-currents.md › How to escape", ""},
		{"beach named", []string{"search", "--snapshot", snap, "--k", "3", "Is it safe to climb the rocks at Joaquina?"}, exitOK, "names joaquina", ""},
		{"filtered to nothing", []string{"search", "--snapshot", snap, "--source", "nowhere", "rip"}, exitOK, "no matching chunks", ""},
		{"nothing relevant", []string{"search", "--snapshot", snap, "Why is the sea sometimes green?"}, exitNoRelevant, "no passage clears the relevance floor (0.56)", ""},
		{"nothing relevant, as JSON", []string{"search", "--snapshot", snap, "--json", "Why is the sea sometimes green?"}, exitNoRelevant, `"nothing_relevant": true`, ""},
		{"floor off ranks anyway", []string{"search", "--snapshot", snap, "--floor", "0", "Why is the sea sometimes green?"}, exitOK, " 1. ", ""},
		{"bad floor", []string{"search", "--snapshot", snap, "--floor", "-2", "rip"}, exitUsage, "", "--floor -2: want 0 or more"},
		{"no question", []string{"search", "--snapshot", snap}, exitUsage, "", "QUESTION"},
		{"no snapshot", []string{"search", "rip"}, exitUsage, "", "--snapshot"},
		{"bad mode", []string{"search", "--snapshot", snap, "--mode", "semantic", "rip"}, exitUsage, "", `--mode (retrieval.mode): "semantic": want hybrid`},
		{"bad k", []string{"search", "--snapshot", snap, "--k", "0", "rip"}, exitUsage, "", "--k (retrieval.top_k): 0: want at least 1"},
		{"bad lang", []string{"search", "--snapshot", snap, "--lang", "de", "rip"}, exitUsage, "", `unknown lang "de"`},
		{"bad kind", []string{"search", "--snapshot", snap, "--kind", "poem", "rip"}, exitUsage, "", `unknown kind "poem"`},
		{"missing snapshot", []string{"search", "--snapshot", filepath.Join(snap, "nope"), "rip"}, exitFailed, "", "no such snapshot folder"},
		{"bad translate", []string{"search", "--snapshot", snap, "--translate", "corpus,babel", "rip"}, exitUsage, "", `--translate "babel": want corpus, freedict`},
		{"no translation", []string{"search", "--snapshot", snap, "--translate", "none", "Como sair de uma corrente de retorno?"}, exitOK, "pt-BR/correntes-de-retorno.md", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectCLI(t, tt.args, tt.want, tt.wantStdout, tt.wantStderr) })
	}
}

// TestNoDictionaries: without FreeDict's databases, search and eval say
// once what to install, and answer.
func TestNoDictionaries(t *testing.T) {
	t.Parallel()
	snap := oceanSnapshot(t)
	empty := t.TempDir()
	for _, args := range [][]string{
		{"search", "--snapshot", snap, "--dictionaries", empty, "How do I escape a rip current?"},
		{"eval", "--snapshot", snap, "--questions", "../../corpus/ocean.golden.json", "--baseline", snap, "--dictionaries", empty},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", args...)
			if code != exitOK || stdout == "" {
				t.Fatalf("got exit %d, stdout %q, want 0 and an answer: %s", code, stdout, stderr)
			}
			if n := strings.Count(stderr, "apt-get install dict-freedict-eng-por dict-freedict-por-eng"); n != 1 {
				t.Errorf("got stderr %q, want what to install said once", stderr)
			}
		})
	}
}

func TestSearchJSON(t *testing.T) {
	t.Parallel()
	snap := oceanSnapshot(t)
	code, stdout, stderr := runCLI(context.Background(), "", "search", "--snapshot", snap, "--json", "--k", "3", "--lang", "pt", "--kind", "safety", "Como sair de um repuxo?")
	if code != exitOK {
		t.Fatalf("got exit %d, want 0: %s", code, stderr)
	}
	var out struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("got %q: %v", stdout, err)
	}
	if len(out.Results) != 3 {
		t.Fatalf("got %d results, want 3", len(out.Results))
	}
	for _, r := range out.Results {
		for _, key := range []string{"doc_path", "section_path", "chunk_id", "score", "text"} {
			if _, ok := r[key]; !ok {
				t.Errorf("got result %v without %s", r, key)
			}
		}
		if r["lang"] != "pt" || r["kind"] != "safety" {
			t.Errorf("got a %v %v result, want pt safety only", r["lang"], r["kind"])
		}
	}
}

func TestEvalCommand(t *testing.T) {
	t.Parallel()
	snap := oceanSnapshot(t)
	tmp := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A question whose expected document is in the snapshot but never answers it.
	wrong := write("wrong.json", `{"version": 1, "corpus": "corpus/ocean", "questions": [
		{"id": "en-wrong", "lang": "en", "question": "How often should I reapply sunscreen?", "expected_doc": "tides.md"}]}`)
	invalid := write("invalid.json", `{"version": 1, "corpus": "corpus/ocean", "questions": [
		{"id": "en-a", "lang": "fr", "question": "Q?", "expected_doc": null}]}`)
	missing := write("missing.json", `{"version": 1, "corpus": "corpus/ocean", "questions": [
		{"id": "en-m", "lang": "en", "question": "Q?", "expected_doc": "nowhere.md"}]}`)
	golden := "../../corpus/ocean.golden.json"
	jsonOut := filepath.Join(tmp, "eval.json")
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStdout string
		wantStderr string
	}{
		{"table", []string{"eval", "--snapshot", snap, "--questions", golden}, exitOK, "| hybrid | all | 82 |", ""},
		{"gate passes", []string{"eval", "--snapshot", snap, "--questions", golden, "--min-recall", "0.9", "--output", jsonOut}, exitOK, "recall@5", ""},
		{"gate fails", []string{"eval", "--snapshot", snap, "--questions", wrong, "--min-recall", "0.5"}, exitFailed, "| hybrid | all | 1 | 0.000", "hybrid recall@5 is 0.000 over 1 answerable questions, below --min-recall 0.500"},
		{"baseline", []string{"eval", "--snapshot", snap, "--questions", golden, "--baseline", snap, "--k", "5"}, exitOK, "1.000 (+0.000)", ""},
		{"invalid questions", []string{"eval", "--snapshot", snap, "--questions", invalid}, exitUsage, "", `question 1 (en-a): lang "fr"`},
		{"questions name a missing document", []string{"eval", "--snapshot", snap, "--questions", missing}, exitFailed, "", `question 1 (en-m): expected doc "nowhere.md" is not in the snapshot`},
		{"bad k", []string{"eval", "--snapshot", snap, "--questions", golden, "--k", "1,x"}, exitUsage, "", "--k"},
		{"bad min-recall", []string{"eval", "--snapshot", snap, "--questions", golden, "--min-recall", "5"}, exitUsage, "", "--min-recall 5"},
		{"no questions", []string{"eval", "--snapshot", snap}, exitUsage, "", "--questions"},
		{"dev half", []string{"eval", "--snapshot", snap, "--questions", golden, "--half", "dev"}, exitOK, "| hybrid | all | 38 |", ""},
		{"held-out half", []string{"eval", "--snapshot", snap, "--questions", golden, "--half", "held-out"}, exitOK, "| hybrid | all | 44 |", ""},
		{"bad half", []string{"eval", "--snapshot", snap, "--questions", golden, "--half", "test"}, exitUsage, "", `--half: half "test": want dev or held-out`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectCLI(t, tt.args, tt.want, tt.wantStdout, tt.wantStderr) })
	}
	var out evalOutput
	b, err := os.ReadFile(jsonOut)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil || out.Report == nil {
		t.Fatalf("got --json report error %v, want a report", err)
	}
	if len(out.Report.Cells) != 12 || len(out.Report.Outcomes) != 3*90 {
		t.Errorf("got %d cells and %d outcomes, want 12 cells (3 modes × 4 groups) and 270 outcomes", len(out.Report.Cells), len(out.Report.Outcomes))
	}
}

// TestSearchRetrievalConfig: the collection's retrieval.mode and top_k are
// the defaults, "naive" means vectors only, and flags override the file.
func TestSearchRetrievalConfig(t *testing.T) {
	t.Parallel()
	snap := oceanSnapshot(t)
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("retrieval:\n  mode: naive\n  top_k: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		extra    []string
		wantMode string
		wantK    int
	}{
		{"from the file", nil, "vector", 2},
		{"flags win", []string{"--mode", "bm25", "--k", "4"}, "bm25", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"search", "--snapshot", snap, "--config", cfg, "--json"}, tt.extra...)
			code, stdout, stderr := runCLI(context.Background(), "", append(args, "rip current")...)
			var out struct {
				Mode    string           `json:"mode"`
				Results []map[string]any `json:"results"`
			}
			if code != exitOK || json.Unmarshal([]byte(stdout), &out) != nil {
				t.Fatalf("exit %d: %s %s", code, stdout, stderr)
			}
			if out.Mode != tt.wantMode || len(out.Results) != tt.wantK {
				t.Errorf("got mode %s with %d results, want %s with %d", out.Mode, len(out.Results), tt.wantMode, tt.wantK)
			}
		})
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("retrieval:\n  mode: semantic\n"), 0o644)
	if code, _, stderr := runCLI(context.Background(), "", "search", "--snapshot", snap, "--config", bad, "rip"); code != exitUsage || !strings.Contains(stderr, "retrieval.mode") {
		t.Errorf("got exit %d (%s), want %d naming retrieval.mode", code, stderr, exitUsage)
	}
}
