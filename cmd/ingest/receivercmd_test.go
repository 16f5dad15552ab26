package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestReferenceReceiverCommand: the reference receiver runs as docs/push.md
// says (go run ./cmd/push-receiver, here built once), a push to the
// address it prints succeeds, and it shows what it holds: every chunk of
// the snapshot, no request that broke the contract; Ctrl-C stops it,
// printing the same.
func TestReferenceReceiverCommand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds cmd/push-receiver")
	}
	bin := filepath.Join(t.TempDir(), "push-receiver")
	if out, err := exec.Command("go", "build", "-o", bin, "../push-receiver").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/push-receiver: %v\n%s", err, out)
	}
	docs, err := os.ReadFile("../../docs/push.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docs), "go run ./cmd/push-receiver") {
		t.Errorf("docs/push.md does not say how to run the reference receiver (go run ./cmd/push-receiver)")
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-async-every", "2")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewReader(stdout)
	first, err := lines.ReadString('\n')
	if err != nil {
		t.Fatalf("the receiver said nothing: %v", err)
	}
	m := regexp.MustCompile(`push to (http://\S+/ingest); what it holds: (http://\S+/) `).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("got %q, want the push URL and the page of what it holds", first)
	}
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	code, _, stderr := runCLI(context.Background(), "", "push", "--snapshot", snap, "--to", m[1], "--tenant", pushTenant, "--config", pushConfig(t, ""), "--state", t.TempDir())
	if code != exitOK {
		t.Fatalf("push: exit %d: %s", code, stderr)
	}
	man, err := artifacts.ReadManifest(snap)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(m[2])
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := regexp.MustCompile(`^(\d+) documents, \d+ versions, (\d+) chunks; \d+ requests .*, 0 invalid\n`)
	if g := want.FindStringSubmatch(string(page)); g == nil || g[2] != strconv.Itoa(man.Counts.Chunks) || strings.Count(string(page), "\n") != man.Counts.Chunks+1 {
		t.Errorf("got %q, want %d chunks held, a line each, no invalid request", firstLine(string(page)), man.Counts.Chunks)
	}
	cmd.Process.Signal(os.Interrupt)
	rest, _ := io.ReadAll(lines)
	if err := cmd.Wait(); err != nil {
		t.Errorf("stopped by Ctrl-C: %v", err)
	}
	if !strings.Contains(string(rest), " upsert ") || !strings.Contains(string(rest), firstLine(string(page))) {
		t.Errorf("got %q on stop, want a line a request and what it holds", rest)
	}
}
