package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// pushKill is where a push process is killed: at the n-th request or poll
// that reaches the receiver in that run, at its first delete request, or
// once its journal holds n lines (between requests).
type pushKill struct {
	name    string
	arrive  int
	poll    int
	delete  bool
	journal int
}

// TestPushKillResume kills real push processes (this test binary run as
// the command, SIGKILL) at ten points of two pushes — a first push of the
// ocean corpus, then a night with edited, added and removed documents —
// and resumes each time. At each kill the receiver is first frozen (it
// answers nothing more) and the test waits until the process has journaled
// every request the receiver acknowledged, so the count that matters is
// exact: after every resume, no acknowledged request was sent again and
// none applied twice, and the last run of each push leaves the receiver
// holding exactly the snapshot, as one clean push does.
func TestPushKillResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kill test: about 10 s")
	}
	slowtest.Mark(t, "push processes killed at ten points: about 5 s")
	t.Setenv(pushTokenEnv, pushToken) // for the clean push in this process
	first := stagestest.Build(t, oceanCopy(t, nil), stages.Options{})
	night := stagestest.Build(t, oceanCopy(t, nightEdits(t)), stages.Options{})
	state := t.TempDir()
	cfg := pushConfig(t, ", delete_batch: 2, tasks: 3")
	r := newPushReceiver(t, receiver.Options{Token: pushToken, AsyncEvery: 4, TaskPolls: 2})

	var mu sync.Mutex
	var child *exec.Cmd
	var exited chan struct{}         // closed when the current run's process has exited
	ackedBefore := map[string]bool{} // keys acknowledged before the current push began
	killedAt := map[string]bool{}
	kill := func(name string) {
		r.Freeze()
		deadline := time.Now().Add(10 * time.Second)
		for !journaled(t, state, r.Acked(), ackedBefore) {
			if time.Now().After(deadline) {
				t.Errorf("%s: the process did not journal what the receiver acknowledged within 10 s", name)
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		mu.Lock()
		if child != nil && !killedAt[name] {
			child.Process.Kill()
			killedAt[name] = true
		}
		done := exited
		mu.Unlock()
		<-done
	}
	runPush := func(snap string, k pushKill) int {
		r.ResetStats()
		var deletes atomic.Int32
		r.SetOptions(receiver.Options{Token: pushToken, AsyncEvery: 4, TaskPolls: 2,
			OnArrive: func(n int, rq *receiver.Request) bool {
				nth := int32(0)
				if rq.Op == "delete" {
					nth = deletes.Add(1)
				}
				if n == k.arrive || k.delete && nth == 1 {
					kill(k.name)
					return true
				}
				return false
			},
			OnPoll: func(n int) bool {
				if n == k.poll {
					kill(k.name)
					return true
				}
				return false
			}})
		cmd := exec.Command(os.Args[0], "push", "--snapshot", snap, "--to", r.URL, "--tenant", pushTenant, "--state", state, "--config", cfg)
		cmd.Env = append(os.Environ(), childEnv+"=1", pushTokenEnv+"="+pushToken)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		mu.Lock()
		child, exited = cmd, make(chan struct{})
		if err := cmd.Start(); err != nil {
			mu.Unlock()
			t.Fatal(err)
		}
		mu.Unlock()
		stop := make(chan struct{})
		if k.journal > 0 {
			go func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(time.Millisecond):
						if journalLines(state) >= k.journal {
							kill(k.name)
							return
						}
					}
				}
			}()
		}
		err := cmd.Wait()
		mu.Lock()
		child = nil
		close(exited)
		mu.Unlock()
		close(stop)
		r.Thaw()
		if strings.Contains(out.String(), pushToken) {
			t.Errorf("%s: the token is in the output:\n%s", k.name, out.String())
		}
		code := cmd.ProcessState.ExitCode()
		if err != nil && k.name == "" {
			t.Fatalf("the resumed push failed (exit %d):\n%s", code, out.String())
		}
		if k.name != "" && !killedAt[k.name] {
			t.Errorf("%s: the push ended (exit %d) before the kill point:\n%s", k.name, code, out.String())
		}
		st := r.Stats()
		if st.ResentAfterAck != 0 || st.DoubleApplied != 0 || len(st.Invalid) != 0 {
			t.Errorf("%s: %d acknowledged requests sent again (%q), %d applied twice, invalid %q; want 0, 0, none",
				k.name, st.ResentAfterAck, st.Resent, st.DoubleApplied, st.Invalid)
		}
		return code
	}

	chains := []struct {
		snap   string
		points []pushKill
	}{
		{first, []pushKill{
			{name: "first request", arrive: 1},
			{name: "fourth request", arrive: 4},
			{name: "first poll", poll: 1},
			{name: "after 8 journal lines", journal: 8},
			{name: "ninth request", arrive: 9},
			{name: "third poll", poll: 3},
		}},
		{night, []pushKill{
			{name: "night: first request", arrive: 1},
			{name: "night: first poll", poll: 1},
			{name: "night: first delete", delete: true},
			{name: "night: after the first delete", journal: 100}, // replaced below: the lines the journal holds + 1
		}},
	}
	for ci, ch := range chains {
		for _, a := range r.Acked() {
			ackedBefore[a] = true
		}
		for _, k := range ch.points {
			if k.journal == 100 {
				k.journal = journalLines(state) + 1
			}
			if code := runPush(ch.snap, k); code == 0 {
				t.Errorf("%s: exit 0, want a killed process", k.name)
			}
		}
		runPush(ch.snap, pushKill{})
		checkReceiverHolds(t, r, ch.snap)
		if ci == 0 {
			clean := newPushReceiver(t, receiver.Options{Token: pushToken})
			code, _, stderr := runCLI(t.Context(), "", "push", "--snapshot", ch.snap, "--to", clean.URL, "--tenant", pushTenant,
				"--state", t.TempDir(), "--config", cfg)
			if code != exitOK {
				t.Fatalf("clean push: exit %d: %s", code, stderr)
			}
			if d := receiver.Diff(r.Dump(), clean.Dump()); d != "" {
				t.Errorf("the resumed pushes and one clean push differ:\n%s", d)
			}
		}
	}
	if len(killedAt) != 10 {
		t.Errorf("got %d kills, want 10", len(killedAt))
	}
}

// journaled reports whether every key acknowledged since the push began
// is in its journal (accepted or done).
func journaled(t *testing.T, state string, acked []string, before map[string]bool) bool {
	have := map[string]bool{}
	f, err := os.Open(filepath.Join(state, "journal.jsonl"))
	if err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var l struct{ Key string }
			if json.Unmarshal(sc.Bytes(), &l) == nil {
				have[l.Key] = true
			}
		}
		f.Close()
	}
	for _, k := range acked {
		if !before[k] && !have[k] {
			return false
		}
	}
	return true
}

func journalLines(state string) int {
	b, err := os.ReadFile(filepath.Join(state, "journal.jsonl"))
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}

// oceanCopy copies the shipped corpus with edits (stagestest.Gone removes).
func oceanCopy(t *testing.T, edits map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ocean")
	copyTree(t, "../../corpus/ocean", dir)
	for rel, s := range edits {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if s == stagestest.Gone {
			os.Remove(p)
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// nightEdits edits four documents, removes two and adds one.
func nightEdits(t *testing.T) map[string]string {
	t.Helper()
	edits := map[string]string{"cold-water.md": stagestest.Gone, "pt-BR/lore/campeche.md": stagestest.Gone,
		"tides.md": "# Tides\nSource: https://tidesandcurrents.noaa.gov\n\nTides rise and fall twice a day on the island's beaches.\n"}
	for _, p := range []string{"rip-currents.md", "sun-and-heat.md", "beaufort-scale.md", "pt-BR/ondas-e-ressaca.md"} {
		b, err := os.ReadFile(filepath.Join("../../corpus/ocean", p))
		if err != nil {
			t.Fatal(err)
		}
		edits[p] = string(b) + "\nA paragraph added tonight, so the document is a new version.\n"
	}
	return edits
}
