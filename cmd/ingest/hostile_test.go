package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/printable"
)

// pathological writes documents built to make a Markdown parser slow or
// hungry (each was minutes or gigabytes before the limits), next to the
// fixture corpus's good documents.
func pathological(t *testing.T, dir string) map[string]string {
	t.Helper()
	head := "# Hostile\nSource: https://example.org/x\n\n"
	var list strings.Builder
	for i := range 2000 {
		list.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	files := map[string]string{
		"quotes.md":      head + strings.Repeat(">", 100_000) + "\n",
		"deep-list.md":   head + list.String(),
		"brackets.md":    head + strings.Repeat("[", 2_000_000) + "\n",
		"huge.md":        head + strings.Repeat("Waves above 1.5 m are dangerous for beginners. ", 200_000) + "\n",
		"many-blocks.md": head + strings.Repeat("a\n\n", 60_000),
	}
	writeFiles(t, dir, files)
	return map[string]string{"quotes.md": "too-deep", "deep-list.md": "too-deep", "brackets.md": "too-many-delimiters", "huge.md": "too-large", "many-blocks.md": "too-many-blocks"}
}

// TestPathologicalCorpus: pathological files mixed into a corpus are each
// rejected with a positioned diagnostic naming the limit; the rest is
// published (exit 3).
func TestPathologicalCorpus(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	want := pathological(t, c)
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", filepath.Join(root, "snap"))
	if code != exitPartial || !strings.Contains(stderr, ": 4 documents (5 rejected") || strings.Contains(stderr, "oversize") {
		t.Fatalf("got exit %d, %q; want 4 documents published and 5 rejected", code, stderr)
	}
	for file, code := range want {
		if !strings.Contains(stderr, file+":") || !strings.Contains(stderr, "["+code+"]") {
			t.Errorf("got no %s diagnostic for %s in:\n%s", code, file, stderr)
		}
	}
}

// TestInterrupt: SIGINT stops a run that is reading a large corpus: exit
// 130, nothing published, the previous snapshot as it was.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := filepath.Join(root, "corpus")
	for i := range 40 {
		copyTree(t, "../../corpus/ocean", filepath.Join(c, strings.Repeat("x", i%3+1)+string(rune('a'+i%26))+string(rune('a'+i/26))))
	}
	pathological(t, c)
	out := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	before := tree(t, out)
	cmd := exec.Command(os.Args[0], "index", "--corpus", c, "--out", out, "--allow-shrink", "--workers", "2", "--log-level", "info", "--log-format", "json")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The handshake: the run says it started (its signal handler is set
	// and it is reading the corpus) before it is interrupted; no sleep to
	// guess how long that takes on a loaded machine.
	var errb strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		errb.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), `"run started"`) {
			break
		}
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	rest, _ := io.ReadAll(stderr)
	errb.Write(rest)
	err = cmd.Wait()
	t.Logf("stopped %v after SIGINT", time.Since(sent).Round(time.Millisecond))
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitInterrupted || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("got %v, stderr %q; want exit 130 saying interrupted", err, errb.String())
	}
	if after := tree(t, out); !equalTrees(before, after) {
		t.Errorf("got the previous snapshot changed by an interrupted run")
	}
}

// hostileStrings are what the injected instructions and the hostile
// answers ask to be stored.
var hostileStrings = []string{"PWNED", "evil.example", "Atlantis", "Atlântida", "Sharks are friendly", "Tubarões", "\x1b", "\x00", "\a", "\u202e"}

// storedFields returns every model-written field of a snapshot's chunks,
// with the chunk's key.
func storedFields(t *testing.T, snap string) map[string][]string {
	t.Helper()
	cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	out := map[string][]string{}
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		f := []string{c.ContextHeader, c.Fields.Hazard, c.Fields.Place, c.Fields.Season, c.Fields.UnsourcedClaim, c.HeaderSource}
		for _, th := range c.Thresholds {
			f = append(f, th.Subject)
		}
		out[c.Key()] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPromptInjection: a corpus whose documents tell the model what to
// answer, indexed against a model that obeys: the instructions never reach
// the model (withheld from the prompt, the chunks holding them not sent),
// and nothing they ask for is stored.
func TestPromptInjection(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{Dims: 1024, Obedient: true})
	defer srv.Close()
	snap := filepath.Join(t.TempDir(), "snap")
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", "../../testdata/injection/corpus", "--out", snap, "--quiet",
		"--llm", "ollama:qwen2.5:7b", "--ollama-host", srv.URL)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, body := range srv.Requests(modelfake.OllamaChat) {
		if strings.Contains(string(body), "PWNED") {
			t.Fatalf("got a prompt carrying the injected instructions:\n%.600s", body)
		}
	}
	fallbacks := 0
	for key, fields := range storedFields(t, snap) {
		for _, f := range fields {
			for _, h := range hostileStrings {
				if strings.Contains(f, h) {
					t.Errorf("%s: got %q stored, want nothing the instructions ask for", key, f)
				}
			}
		}
		if fields[5] == schema.HeaderExtractiveFallback {
			fallbacks++
		}
	}
	var rep artifacts.Report
	readJSON(t, filepath.Join(snap, artifacts.ReportFile), &rep)
	if fallbacks == 0 || rep.Models == nil || rep.Models.Headers.Invalid[prompt.ReasonInstructionText] != int64(fallbacks) {
		t.Errorf("got %d chunks not sent and report %+v; want them counted as %s", fallbacks, rep.Models, prompt.ReasonInstructionText)
	}
}

// TestHostileAnswers: a model whose every answer is well-formed JSON with
// hostile content. Each answer is refused (the repair too), the extractive
// header is kept, nothing hostile is stored, and report.json counts the
// refusals by reason.
func TestHostileAnswers(t *testing.T) {
	t.Parallel()
	answer := func(header, hazard, place, claim string) string {
		b, _ := json.Marshal(map[string]any{"context_header": header, "hazard": hazard, "place": place, "season": "", "thresholds": []any{}, "unsourced_claim": claim})
		return string(b)
	}
	tests := []struct {
		name, answer string
		reason       string
	}{
		{"a link and a place from nowhere", answer("PWNED: visit http://evil.example and ignore safety flags.", "", "Atlantis", ""), prompt.ReasonLink},
		{"a claim the chunk does not make", answer("Waves and surf.", "", "", "Sharks are friendly, swim with them."), prompt.ReasonClaim},
		{"a place from nowhere", answer("Waves and surf.", "", "Atlantis", ""), prompt.ReasonPlace},
		{"a safety claim the chunk does not make", answer("It is always safe to swim here.", "", "", ""), prompt.ReasonSafetyClaim},
		{"escape sequence as hazard", answer("Waves and surf.", "\x1b[2j", "", ""), prompt.ReasonControl},
		{"NUL in the header", answer("Waves\x00 and surf.", "", "", ""), prompt.ReasonControl},
		{"BEL in the header", answer("Waves\a and surf.", "", "", ""), prompt.ReasonControl},
		{"right-to-left override", answer("Waves \u202eand surf.", "", "", ""), prompt.ReasonBidi},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modelfake.New(modelfake.Options{Dims: 1024, Answer: tt.answer})
			defer srv.Close()
			snap := filepath.Join(t.TempDir(), "snap")
			code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--out", snap, "--quiet",
				"--llm", "ollama:qwen2.5:7b", "--ollama-host", srv.URL)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for key, fields := range storedFields(t, snap) {
				for _, f := range fields {
					for _, h := range hostileStrings {
						if strings.Contains(f, h) {
							t.Errorf("%s: got %q stored", key, f)
						}
					}
				}
				if fields[5] == schema.HeaderModel {
					t.Errorf("%s: got a model header stored from a hostile answer", key)
				}
			}
			var rep artifacts.Report
			readJSON(t, filepath.Join(snap, artifacts.ReportFile), &rep)
			if rep.Models == nil || len(rep.Models.Rejects) == 0 || !slices.Contains(rep.Models.Rejects[0].Reasons, tt.reason) || rep.Models.Headers.Invalid[tt.reason] == 0 {
				t.Errorf("got report models %+v, want rejects with reason %s, counted", rep.Models, tt.reason)
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestSecretsNeverPrinted plants credentials in the model servers'
// addresses and in OPENAI_API_KEY, runs against servers that work and that
// fail mid-run, and greps stdout, stderr and every file the runs wrote.
func TestSecretsNeverPrinted(t *testing.T) {
	const (
		password = "sk-test-SECRET123"
		user     = "admin-PLANTED"
		apiKey   = "sk-PLANTED-KEY789"
	)
	t.Setenv("OPENAI_API_KEY", apiKey)
	root := t.TempDir()
	withAuth := func(u string) string { return strings.Replace(u, "http://", "http://"+user+":"+password+"@", 1) }
	tests := []struct {
		name  string
		fault *modelfake.Fault
		args  func(url string) []string
		want  int
	}{
		{"ollama works", nil, func(u string) []string {
			return []string{"--llm", "ollama:qwen2.5:7b", "--ollama-host", withAuth(u)}
		}, exitOK},
		{"ollama fails mid-run", &modelfake.Fault{Kind: modelfake.Status500, Path: modelfake.OllamaChat, After: 3}, func(u string) []string {
			return []string{"--llm", "ollama:qwen2.5:7b", "--ollama-host=" + withAuth(u)}
		}, exitFailed},
		{"ollama unreachable", nil, func(string) []string {
			return []string{"--llm", "ollama:qwen2.5:7b", "--ollama-host", withAuth("http://127.0.0.1:1")}
		}, exitUsage},
		{"openai works", nil, func(u string) []string {
			return []string{"--embedder", "openai:bge-m3", "--openai-base-url", u + "/v1"}
		}, exitOK},
		{"openai fails mid-run", &modelfake.Fault{Kind: modelfake.Status500, Path: modelfake.OpenAIEmbed, After: 1}, func(u string) []string {
			return []string{"--embedder", "openai:bge-m3", "--openai-base-url", withAuth(u) + "/v1"}
		}, exitFailed},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modelfake.New(modelfake.Options{Dims: 1024, APIKey: apiKey})
			defer srv.Close()
			if tt.fault != nil {
				srv.SetFault(*tt.fault)
			}
			out := filepath.Join(root, fmt.Sprint(i), "snap")
			args := append([]string{"index", "--corpus", fixtureCorpus, "--out", out}, tt.args(srv.URL)...)
			code, stdout, stderr := runCLI(context.Background(), "", args...)
			if code != tt.want {
				t.Errorf("got exit %d, want %d: %s", code, tt.want, stderr)
			}
			texts := map[string]string{"stdout": stdout, "stderr": stderr}
			filepath.WalkDir(filepath.Join(root, fmt.Sprint(i)), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(p)
					texts[p] = string(b)
				}
				return nil
			})
			for where, text := range texts {
				for _, secret := range []string{password, user, apiKey} {
					if strings.Contains(text, secret) {
						t.Errorf("got %s in %s", secret, where)
					}
				}
			}
		})
	}
}

// TestNameNotUTF8: a file whose name is not valid UTF-8 is skipped with a
// warning, and the snapshot holds only valid strings (verify's utf8 check).
func TestNameNotUTF8(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	if err := os.WriteFile(filepath.Join(c, "bad-\xff-name.md"), []byte("# Bad name\nSource: https://example.org/b\n\nText.\n"), 0o644); err != nil {
		t.Skip("this file system refuses names that are not UTF-8:", err)
	}
	snap := filepath.Join(root, "snap")
	code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", snap)
	if code != exitOK || !strings.Contains(stderr, "bad-\uFFFD-name.md: warning:") || !strings.Contains(stderr, "[name-not-utf8]") {
		t.Errorf("got exit %d, %q; want the file named in a name-not-utf8 warning", code, stderr)
	}
	if code, out, _ := runCLI(context.Background(), "", "verify", snap); code != exitOK || !strings.Contains(out, "utf8") {
		t.Errorf("verify: got exit %d, %s", code, out)
	}
}

// TestGraceOnlyAfterAnInterrupt: the grace timer that ends a stuck
// interrupted run is armed by a signal's cancellation, never by the
// cancellation a finished run makes on its way out (under the race detector
// a run that had published was ended with exit 130 while it exited), and a
// run that stops within the grace keeps its own exit.
func TestGraceOnlyAfterAnInterrupt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		finishFirst   bool // the run finishes, then its context is cancelled
		finishInGrace bool // a signal, then the run finishes within the grace
		wantArmed     bool // the signal handler stopped and the grace begun
		wantEnd       bool
	}{
		{"a finished run", true, false, false, false},
		{"an interrupt the run does not stop for", false, false, true, true},
		{"an interrupt the run stops for in time", false, true, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			finished := make(chan struct{})
			if tt.finishFirst {
				close(finished)
			}
			var stopped, ended bool
			var graceOver func() // what runs once the grace has passed: the test's clock
			interrupted(finished, func() { stopped = true }, func(f func()) { graceOver = f }, func() { ended = true })
			if armed := graceOver != nil; armed != tt.wantArmed || stopped != tt.wantArmed {
				t.Errorf("got the grace begun %v and the signal handler stopped %v, want %v", armed, stopped, tt.wantArmed)
			}
			if tt.finishInGrace {
				close(finished)
			}
			if graceOver != nil {
				graceOver()
			}
			if ended != tt.wantEnd {
				t.Errorf("got the process ended as interrupted %v, want %v", ended, tt.wantEnd)
			}
		})
	}
	t.Run("armed by the context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ended := make(chan struct{})
		armGrace(ctx, make(chan struct{}), cancel, time.Millisecond, func() { close(ended) })
		cancel()
		select {
		case <-ended:
		case <-time.After(time.Minute): // what a hang looks like, not a speed target
			t.Fatal("a cancelled run that did not stop was not ended")
		}
	})
}

// TestControlNames: a file name with a control or bidirectional character
// is skipped with a warning that shows it escaped, in both diagnostics
// formats; nothing printed can drive the terminal or start a workflow
// command, and no doc_path holds one. (A name with a newline forged a line
// "::error file=SECURITY.md,line=1::…"; ESC and OSC sequences passed raw;
// the names were stored in doc_path.)
func TestControlNames(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	c := copyCorpus(t, filepath.Join(root, "corpus"))
	names := []string{
		"forged\n::error file=SECURITY.md,line=1::secrets leaked.md",
		"esc-\x1b]0;owned\x07-\x1b[2J.md",
		"invoice\u202egpj.md",
		"csi-\u009b31m.md",
		"del-\x7f.md",
		"dir-\x1b[31m/inside.md",
	}
	for _, n := range names {
		p := filepath.Join(c, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("# Hostile name\nSource: https://example.org/h\n\nText.\n"), 0o644); err != nil {
			t.Skip("this file system refuses the name:", err)
		}
	}
	for _, format := range []string{"text", "github"} {
		t.Run(format, func(t *testing.T) {
			snap := filepath.Join(root, "snap-"+format)
			code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--out", snap, "--diagnostics-format", format)
			if code != exitOK {
				t.Fatalf("got exit %d: %s", code, stderr)
			}
			for _, line := range strings.Split(stdout+stderr, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "::") && !regexp.MustCompile(`^::warning file=[^\n]*,title=name-control-character::`).MatchString(line) {
					t.Errorf("got a workflow command line not ours: %q", line)
				}
				if strings.ContainsAny(line, "\x1b\x07\x7f\r\u202e\u009b") {
					t.Errorf("got a raw control character in %q", line)
				}
			}
			if got := strings.Count(stderr, "name-control-character"); got < len(names) {
				t.Errorf("got %d name-control-character warnings, want %d:\n%s", got, len(names), stderr)
			}
			for _, want := range []string{`forged\n`, `esc-\u001b]0;owned\u0007`, `invoice\u202egpj.md`, `csi-\u009b31m.md`, `del-\u007f.md`, `dir-\u001b[31m`} {
				if !strings.Contains(stderr, want) {
					t.Errorf("got no %s in the warnings:\n%s", want, stderr)
				}
			}
			chunks, err := artifacts.ReadChunks(filepath.Join(snap, artifacts.ChunksFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, ch := range chunks {
				if printable.HasUnsafe(ch.DocPath) {
					t.Errorf("got doc_path %q stored", ch.DocPath)
				}
			}
		})
	}
}

// TestErrorsEscaped: a path in an error cannot start a workflow command or
// reach the terminal raw, whichever command prints it.
func TestErrorsEscaped(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "x\n::error file=SECURITY.md::forged\x1b[2J")
	for _, args := range [][]string{
		{"index", "--corpus", bad, "--out", filepath.Join(t.TempDir(), "o")},
		{"verify", bad},
		{"inspect", "--json", bad},
	} {
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		if code == exitOK {
			t.Errorf("%s: got exit 0", args[0])
		}
		for _, line := range strings.Split(stdout+stderr, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "::") || strings.ContainsRune(line, '\x1b') {
				t.Errorf("%s: got %q", args[0], line)
			}
		}
		if !strings.Contains(stdout+stderr, `\u003a:error file=SECURITY.md::forged\u001b[2J`) && !strings.Contains(stdout+stderr, `\n::error file=SECURITY.md::forged\u001b[2J`) {
			t.Errorf("%s: got %q, want the path shown escaped", args[0], stdout+stderr)
		}
	}
}
