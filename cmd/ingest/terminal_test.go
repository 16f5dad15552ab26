package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/internal/slowtest"
)

// TestBarsInTmux runs index on the OpenTelemetry docs in a tmux pane, as a
// user at a terminal would, and reads what reached the pane: the bars are
// drawn while the run goes (frames that each erase the last, the parse
// count drawn at three values or more) and stay on screen at the end
// (the pane's history), and stdout gets
// nothing. The pane's stream is copied by tmux pipe-pane; the run is
// started only once the copy is on, and the test waits for its end on a
// tmux channel, not for a time.
func TestBarsInTmux(t *testing.T) {
	t.Parallel()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	corpusDir := filepath.Join(otelCorpus, "en")
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", corpusDir, err)
	}
	slowtest.Mark(t, "the OpenTelemetry docs indexed in a tmux pane: about 10 s")
	abs, err := filepath.Abs(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg, stream, stdout := filepath.Join(dir, "otel.yaml"), filepath.Join(dir, "pane.log"), filepath.Join(dir, "stdout")
	if err := os.WriteFile(cfg, []byte(otelConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock") // a server of its own: no user's session is touched
	ctl := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	script := fmt.Sprintf("tmux -S %q wait-for go; %s=1 TERM=xterm-256color %q index --corpus %q --config %q --out %q >%q; echo exit=$?; tmux -S %q wait-for -S done",
		sock, childEnv, os.Args[0], abs, cfg, filepath.Join(dir, "snap"), stdout, sock)
	ctl("new-session", "-d", "-s", "bars", "-x", "120", "-y", "30", "sh", "-c", script+"; sleep 600")
	t.Cleanup(func() { exec.Command(tmux, "-S", sock, "kill-server").Run() })
	ctl("pipe-pane", "-t", "bars", "-o", "cat >"+stream)
	ctl("wait-for", "-S", "go")
	ctl("wait-for", "done")
	screen := ctl("capture-pane", "-p", "-S", "-", "-t", "bars") // the history too: a long summary scrolls the bars up
	raw, err := os.ReadFile(stream)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(screen, "exit=0") {
		t.Fatalf("the run failed; the pane shows:\n%s", screen)
	}
	counts := map[string]bool{}
	for _, m := range regexp.MustCompile(`parse\+chunk\s+(\d+)/(\d+) docs`).FindAllStringSubmatch(string(raw), -1) {
		counts[m[1]] = true
	}
	t.Logf("the pane at the end:\n%s\n(%d parse counts drawn)", screen, len(counts))
	if len(counts) < 3 {
		t.Errorf("got the parse count at %d values on the pane, want the bars moving (3 or more)", len(counts))
	}
	if n := strings.Count(string(raw), "A\x1b[J"); n < 2 {
		t.Errorf("got %d redraws (cursor up, erase), want the bars redrawn in place", n)
	}
	for _, want := range []string{"parse+chunk", "docs", "embed+write", "chunks", "/s"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the pane at the end shows:\n%s\nwant %q", screen, want)
		}
	}
	if b, err := os.ReadFile(stdout); err != nil || len(b) > 0 {
		t.Errorf("got %q on stdout (%v), want nothing", b, err)
	}
}
