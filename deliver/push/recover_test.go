package push

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
)

// TestLostTasks checks a push recovers when the destination forgets the
// tasks it accepted (a receiver restarted, its task store gone): a task
// an interrupted push left that now answers 404 or 410 is journaled lost
// and its documents sent again, with --full too; a task lost while the
// push runs is sent again at once.
func TestLostTasks(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	tests := []struct {
		name        string
		gone        bool // the receiver answers 410 (else 404)
		full        bool
		interrupted bool // a first push was interrupted with tasks pending
	}{
		{name: "interrupted, then 404", interrupted: true},
		{name: "interrupted, then 410", interrupted: true, gone: true},
		{name: "interrupted, then --full", interrupted: true, full: true},
		{name: "lost while the push runs"},
		{name: "lost while the push runs, 410", gone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newReceiver(t, receiver.Options{Token: token})
			state := t.TempDir()
			if tt.interrupted {
				interruptWithTasks(t, r, snap, state)
				r.Restart()
				r.SetOptions(receiver.Options{Token: token, GoneTasks: tt.gone})
			} else {
				var once sync.Once
				r.SetOptions(receiver.Options{Token: token, AsyncEvery: 1, TaskPolls: 1, GoneTasks: tt.gone, OnPoll: func(int) bool {
					once.Do(r.Restart)
					return false
				}})
			}
			opt := options(t, r, snap, state)
			opt.Full = tt.full
			rep, err := Push(context.Background(), opt)
			if err != nil {
				t.Fatalf("got %v, want a push that recovers", err)
			}
			checkHolds(t, r, snap)
			if rep.Resume.Lost == 0 {
				t.Errorf("got %d lost tasks in the report, want some", rep.Resume.Lost)
			}
			if _, err := os.Stat(filepath.Join(state, journalFile)); !os.IsNotExist(err) {
				t.Errorf("the journal is still there after a complete push (%v)", err)
			}
			if st := r.Stats(); st.DoubleApplied != 0 {
				t.Errorf("got %d requests applied twice, want 0", st.DoubleApplied)
			}
		})
	}
}

// interruptWithTasks runs a push whose every request is accepted as a task
// that never finishes, and cancels it once tasks are pending: the journal
// holds accepted tasks.
func interruptWithTasks(t *testing.T, r *receiver.Receiver, snap, state string) {
	t.Helper()
	r.SetOptions(receiver.Options{Token: token, AsyncEvery: 1, TaskPolls: 1 << 30})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := options(t, r, snap, state)
	var mu sync.Mutex
	polls := 0
	opt.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		if polls++; polls >= 8 {
			cancel()
		}
		return ctx.Err()
	}
	if _, err := Push(ctx, opt); err == nil {
		t.Fatal("the first push finished, want it interrupted")
	}
	lines, _, err := (&folder{dir: state}).readJournal()
	if err != nil || len(replay(nil, lines).pending) == 0 {
		t.Fatalf("got %d journal lines (%v), want tasks pending", len(lines), err)
	}
}

// TestBrokenState checks a state.json that cannot be read does not stop
// every later push: it is moved aside with a warning, the snapshot is sent
// again, and a good state written.
func TestBrokenState(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	for _, text := range []string{"", "null", "{}", `{"contract":1,"destination":"http://x`, "\x00\x00\x00"} {
		t.Run(strings.ToValidUTF8(text, "?"), func(t *testing.T) {
			t.Parallel()
			r := newReceiver(t, receiver.Options{Token: token})
			state := t.TempDir()
			if _, err := Push(context.Background(), options(t, r, snap, state)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(state, stateFile), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			plan, err := PlanPush(context.Background(), options(t, r, snap, state))
			if err != nil || len(plan.Warnings) != 1 {
				t.Fatalf("plan: got %v, warnings %q; want one warning", err, plan.Warnings)
			}
			rep, err := Push(context.Background(), options(t, r, snap, state))
			if err != nil {
				t.Fatalf("got %v, want a push that rebuilds the state", err)
			}
			if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "is unreadable") || rep.Documents.Added != 29 {
				t.Errorf("got warnings %q, %d added; want one about the state, 29 added", rep.Warnings, rep.Documents.Added)
			}
			checkHolds(t, r, snap)
			rep, err = Push(context.Background(), options(t, r, snap, state))
			if err != nil || rep.Documents.Unchanged != 29 || len(rep.Warnings) != 0 {
				t.Errorf("the next push: got %v, %+v, warnings %q; want 29 unchanged, no warning", err, rep.Documents, rep.Warnings)
			}
			aside, _ := filepath.Glob(filepath.Join(state, stateFile+".broken-*"))
			if len(aside) != 1 {
				t.Errorf("got %q moved aside, want the broken state kept", aside)
			}
		})
	}
}
