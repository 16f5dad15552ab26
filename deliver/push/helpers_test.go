package push

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

const (
	tenant = "0c000000-0000-4000-8000-00000000000c"
	token  = "planted-T0ken-4f1e9c" // must appear in no output, state or audit
)

// oceanCorpus copies the shipped corpus (13 English and 16 Portuguese
// documents, some over ten chunks) into a temporary folder with edits
// applied (stagestest.Gone removes a file).
func oceanCorpus(t *testing.T, edits map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("../../corpus/ocean", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("../../corpus/ocean", path)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return write(filepath.Join(dst, rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, s := range edits {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if s == stagestest.Gone {
			os.Remove(p)
			continue
		}
		if err := write(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func write(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// editParagraph changes one sentence of rip-currents.md.
func editParagraph(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../corpus/ocean/rip-currents.md")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "stay calm and do not swim against it", "stay calm and never swim against it", 1)
	if s == string(b) {
		t.Fatal("the edit found nothing to change in rip-currents.md")
	}
	return map[string]string{"rip-currents.md": s}
}

func snapshotOf(t *testing.T, edits map[string]string) string {
	t.Helper()
	return stagestest.Build(t, oceanCorpus(t, edits), stages.Options{})
}

func newReceiver(t *testing.T, opt receiver.Options) *receiver.Receiver {
	t.Helper()
	r, err := receiver.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// waits records the waits a push asked for instead of sleeping them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// options are a push of snap to r with a state folder of its own.
func options(t *testing.T, r *receiver.Receiver, snap, state string) Options {
	set := pushconf.DefaultSettings()
	set.To, set.Tenant, set.State = r.URL, tenant, state
	set.PollInterval, set.Timeout = time.Millisecond, 5*time.Second
	w := &waits{}
	return Options{Snapshot: snap, Settings: set, Token: token, Agent: "ingest/test", sleep: w.sleep}
}

// checkHolds fails unless the receiver holds exactly the snapshot's chunks.
func checkHolds(t *testing.T, r *receiver.Receiver, snap string) {
	t.Helper()
	want, err := receiver.SnapshotRows(snap, tenant)
	if err != nil {
		t.Fatal(err)
	}
	if d := receiver.Diff(r.Dump(), want); d != "" {
		t.Errorf("the receiver does not hold the snapshot:\n%s", d)
	}
	if inv := r.Stats().Invalid; len(inv) > 0 {
		t.Errorf("requests broke the contract: %q", inv)
	}
}
