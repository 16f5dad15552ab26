package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/stages/estimate"
)

const fixtureCorpus = "../../testdata/corpus"

func runCLI(ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(ctx, append([]string{"ingest"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// badCorpus is the fixture corpus plus one document that is rejected.
func badCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir(fixtureCorpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(fixtureCorpus, p)
		b, _ := os.ReadFile(p)
		os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.md"), []byte("no title here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	bad := badCorpus(t)
	badConfig := filepath.Join(tmp, "bad.yaml")
	os.WriteFile(badConfig, []byte("chunk:\n  maxx: 3\n"), 0o644)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name       string
		ctx        context.Context
		args       []string
		want       int
		wantStderr string
		published  string // a folder that must exist afterwards ("" to skip)
		absent     string // a folder that must not
	}{
		{"ok", context.Background(), []string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(tmp, "ok"), "--quiet"}, exitOK, "4 documents", filepath.Join(tmp, "ok"), ""},
		{"partial", context.Background(), []string{"index", "--corpus", bad, "--out", filepath.Join(tmp, "partial")}, exitPartial, "bad.md:1: error: missing source URL", filepath.Join(tmp, "partial"), ""},
		{"strict", context.Background(), []string{"index", "--corpus", bad, "--out", filepath.Join(tmp, "strict"), "--strict"}, exitFailed, "strict mode", "", filepath.Join(tmp, "strict")},
		{"missing corpus", context.Background(), []string{"index", "--out", filepath.Join(tmp, "x")}, exitUsage, "needs --corpus", "", filepath.Join(tmp, "x")},
		{"unknown flag", context.Background(), []string{"index", "--corpus", fixtureCorpus, "--bogus"}, exitUsage, "bogus", "", ""},
		{"unknown config key", context.Background(), []string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(tmp, "y"), "--config", badConfig}, exitUsage, "maxx", "", filepath.Join(tmp, "y")},
		{"bad budget", context.Background(), []string{"chunk", "--max", "0", fixtureCorpus + "/waves.md"}, exitUsage, "chunk.max", "", ""},
		{"chunk without files", context.Background(), []string{"chunk"}, exitUsage, "at least one FILE", "", ""},
		{"missing corpus folder", context.Background(), []string{"index", "--corpus", filepath.Join(tmp, "nope"), "--out", filepath.Join(tmp, "z")}, exitUsage, "nope: no such folder", "", filepath.Join(tmp, "z")},
		{"interrupted", cancelled, []string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(tmp, "int")}, exitInterrupted, "", "", filepath.Join(tmp, "int")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(tt.ctx, "", tt.args...)
			if code != tt.want {
				t.Errorf("got exit %d, want %d; stderr:\n%s", code, tt.want, stderr)
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("got stderr %q, want it to contain %q", stderr, tt.wantStderr)
			}
			if tt.published != "" {
				if _, err := os.Stat(filepath.Join(tt.published, "manifest.json")); err != nil {
					t.Errorf("got no snapshot at %s: %v", tt.published, err)
				}
			}
			if tt.absent != "" {
				if _, err := os.Stat(tt.absent); err == nil {
					t.Errorf("got %s published, want nothing", tt.absent)
				}
			}
		})
	}
}

// TestPlan: --plan predicts the calls a run makes — within one call per
// changed chunk — honouring --llm and --embedder and what the previous
// snapshot already holds, and publishes nothing.
func TestPlan(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	out := filepath.Join(t.TempDir(), "snap")
	models := []string{"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}
	steps := []struct {
		name   string
		flags  []string
		change func()
	}{
		{"offline, first run", nil, nil},
		{"models, nothing to reuse (another embedder)", models, nil},
		{"models, unchanged", models, nil},
		{"models, one paragraph edited", models, func() {
			b, _ := os.ReadFile(filepath.Join(c, "waves.md"))
			os.WriteFile(filepath.Join(c, "waves.md"), append(b, []byte("\nA new paragraph about waves tonight.\n")...), 0o644)
		}},
	}
	for _, st := range steps {
		if st.change != nil {
			st.change()
		}
		args := append([]string{"index", "--corpus", c, "--out", out, "--json"}, st.flags...)
		code, stdout, stderr := runCLI(context.Background(), "", append(args, "--plan")...)
		if code != exitOK {
			t.Fatalf("%s: plan: exit %d: %s", st.name, code, stderr)
		}
		var p estimate.Result
		if err := json.Unmarshal([]byte(stdout), &p); err != nil {
			t.Fatalf("%s: plan --json: %v: %s", st.name, err, stdout)
		}
		code, stdout, stderr = runCLI(context.Background(), "", append(args, "--allow-shrink")...)
		if code != exitOK {
			t.Fatalf("%s: run: exit %d: %s", st.name, code, stderr)
		}
		var s runSummary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatalf("%s: index --json: %v: %s", st.name, err, stdout)
		}
		if p.HeaderCalls != s.Calls.HeaderCalls || p.EmbeddingCalls != s.Calls.EmbedCalls || p.Chunks != s.Counts.Chunks {
			t.Errorf("%s: plan said %d header calls, %d embedding calls, %d chunks; the run made %d, %d, %d",
				st.name, p.HeaderCalls, p.EmbeddingCalls, p.Chunks, s.Calls.HeaderCalls, s.Calls.EmbedCalls, s.Counts.Chunks)
		}
	}
	code, _, _ := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", filepath.Join(t.TempDir(), "never"), "--plan")
	if code != exitOK {
		t.Errorf("plan: exit %d", code)
	}
	if _, err := os.Stat(filepath.Join(t.TempDir(), "never")); err == nil {
		t.Errorf("plan published a snapshot")
	}
}

func TestChunkCommand(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(context.Background(), "", "chunk", fixtureCorpus+"/safety/rules.md", fixtureCorpus+"/pt-BR/temperatura.md")
	if code != exitOK {
		t.Fatalf("got exit %d, want 0: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var kinds []string
	for _, l := range lines {
		var c chunkLine
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		kinds = append(kinds, c.Kind+"/"+c.Element)
	}
	want := "safety/list_item safety/list_item safety/list_item safety/paragraph structured/paragraph structured/table_row structured/table_row"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestChunkStats: chunk reads a folder as a corpus and an absolute FILE as
// given; --stats prints the quality figures of each argument.
func TestChunkStats(t *testing.T) {
	t.Parallel()
	abs, err := filepath.Abs(fixtureCorpus + "/waves.md")
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(context.Background(), "", "chunk", abs)
	if code != exitOK || !strings.Contains(out, `"doc_path":"`+abs+`"`) {
		t.Errorf("chunk %s: exit %d, stdout %q, stderr %q", abs, code, out, stderr)
	}
	code, out, stderr = runCLI(context.Background(), "", "chunk", "--stats", "../../corpus/ocean", abs)
	if code != exitOK {
		t.Fatalf("chunk --stats: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"../../corpus/ocean: 29 documents, ", abs + ": 1 documents, ", "non-code chunks under 40 characters", `ending in ":", cut from what follows`,
		"code with a lead-in that carries it", "cuts inside a sentence                     0", "safety/list_item"} {
		if !strings.Contains(out, want) {
			t.Errorf("chunk --stats: got\n%s\nwant it to hold %q", out, want)
		}
	}
}

// TestChunkJSONWithCredentials: chunk's JSON lines stay JSON, and the text
// as written, when it holds a credential-like parameter (the pattern
// scrubber once took the string's closing quote with it; the output is no
// longer rewritten by pattern).
func TestChunkJSONWithCredentials(t *testing.T) {
	t.Parallel()
	doc := filepath.Join(t.TempDir(), "dsn.md")
	os.WriteFile(doc, []byte("# DSN\nSource: https://example.org\n\nConnect to the database with the URL option ?password=hunter2\n"), 0o644)
	code, out, stderr := runCLI(context.Background(), "", "chunk", doc)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !json.Valid([]byte(l)) {
			t.Errorf("got a line that is not JSON: %s", l)
		}
	}
	// Corpus text is printed as written: the credential-looking value is
	// the document's, not one the command was given (TestCorpusTextAsWritten).
	if !strings.Contains(out, "?password=hunter2") {
		t.Errorf("got %s, want the document's text as written", out)
	}
}

func TestInspectAndThresholds(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "snap")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", "../../corpus/ocean", "--out", out, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "inspect", out)
	if code != exitOK || !strings.Contains(stdout, "1024-dim vectors") || !strings.Contains(stdout, "by kind:") {
		t.Errorf("inspect: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(context.Background(), "", "thresholds", out)
	file, _ := os.ReadFile(filepath.Join(out, "thresholds.md"))
	if code != exitOK || stdout != string(file) {
		t.Errorf("thresholds: exit %d; got output that differs from the snapshot's thresholds.md", code)
	}
	code, stdout, _ = runCLI(context.Background(), "", "thresholds", "--json", out)
	var ts []map[string]any
	if err := json.Unmarshal([]byte(stdout), &ts); code != exitOK || err != nil || len(ts) == 0 {
		t.Errorf("thresholds --json: exit %d, %d thresholds, %v", code, len(ts), err)
	}
}

func TestUnitsCommand(t *testing.T) {
	t.Parallel()
	in := "Waves above 5 ft (1.5 m)\nágua abaixo de 18,5 °C; ligue 193\n\n"
	code, out, stderr := runCLI(context.Background(), in, "units", "--lang", "pt", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := `{"quantities":[{"surface":"5 ft","value":5,"unit":"ft","dimension":"length","si_value":1.524,"si_unit":"m","start":12,"end":16},{"surface":"1.5 m","value":1.5,"unit":"m","dimension":"length","si_value":1.5,"si_unit":"m","start":18,"end":23}]}
{"quantities":[{"surface":"18,5 °C","value":18.5,"unit":"°C","dimension":"temperature","si_value":18.5,"si_unit":"degC","start":16,"end":24}]}
{"quantities":[]}
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if code, _, _ := runCLI(context.Background(), "", "units", "--lang", "fr"); code != exitUsage {
		t.Errorf("got exit %d for --lang fr, want %d", code, exitUsage)
	}
}
