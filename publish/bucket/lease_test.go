package bucket_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/publish/bucket"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// gonePID is the pid of a process of this host that has ended.
func gonePID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func leaseBody(h publish.Holder, expires time.Time) []byte {
	b, _ := json.Marshal(map[string]any{"pid": h.PID, "host": h.Host, "started": h.Started, "process": h.Process, "expires": expires.UTC().Format(time.RFC3339)})
	return b
}

// TestLeaseTakeover: a lease whose run is over is taken over at once — its
// holder ran on this host and its process is gone, or its pid now belongs
// to a process started at another time, or it expired — and one that
// cannot be read is named as such and taken over once its TTL has passed
// since it was written. A live holder is refused, named. Before, a
// SIGKILLed run's lease stopped every run for 24 hours, naming a pid that
// no longer existed, and a lease that was not JSON never expired. An expiry
// further ahead than the TTL and its skew (9999-12-31, a writer's clock a day
// ahead) is read as the TTL from the lease's writing, the holder named
// (issue 31, item 6): before, it blocked publishing until that date.
func TestLeaseTakeover(t *testing.T) {
	host, _ := os.Hostname()
	me := publish.Self()
	later := time.Now().Add(time.Hour)
	forever := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	tests := []struct {
		name     string
		body     []byte
		ttl      time.Duration // the taker's LeaseTTL (0: the default)
		want     bool          // taken
		wantText string        // in the refusal
	}{
		{"this host, its process gone", leaseBody(publish.Holder{PID: gonePID(t), Host: host, Started: "2026-12-01T02:00:00Z"}, later), 0, true, ""},
		{"this host, its pid taken by a later process", leaseBody(publish.Holder{PID: os.Getpid(), Host: host, Started: "2026-12-01T02:00:00Z", Process: "another start"}, later), 0, me.Process != "", ""},
		{"this host, running", leaseBody(me, later), 0, false, "another ingest run is writing it (pid"},
		{"another host, not expired", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, later), 0, false, "pid 1 on elsewhere"},
		{"another host, expired", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, time.Now().Add(-time.Minute)), 0, true, ""},
		{"another host, expires in 9999, written just now", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, forever), 0, false,
			"pid 1 on elsewhere, started 2026-12-01T02:00:00Z); its lease says it expires at 9999-12-31T23:59:59Z, further ahead than its TTL (10m0s) allows: taken as expiring at"},
		{"another host, expires in 9999, older than the TTL", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, forever), time.Nanosecond, true, ""},
		{"another host, its clock a day ahead, older than the TTL", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, time.Now().Add(24*time.Hour)), time.Nanosecond, true, ""},
		{"another host, within the TTL and the skew", leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, time.Now().Add(11*time.Minute)), 0, false, "its lease expires at"},
		{"empty, written just now", nil, 0, false, "cannot be read (0 bytes"},
		{"not JSON, written just now", []byte("{garbage"), 0, false, "cannot be read (8 bytes"},
		{"not JSON, older than the TTL", []byte("{garbage"), time.Nanosecond, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := fakeS3(t)
			if err := writeObject(t, raw(t, url), ".lease", tt.body); err != nil {
				t.Fatal(err)
			}
			s := open(t, url)
			s.LeaseTTL = tt.ttl
			release, err := s.Acquire(context.Background(), 0)
			if tt.want {
				if err != nil {
					t.Fatalf("got %v, want the lease taken over", err)
				}
				if err := release(); err != nil {
					t.Error(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("got %v, want the lease refused with %q", err, tt.wantText)
			}
		})
	}
}

// TestHelperProcess is not a test: it is the process TestLeaseWait waits
// for, alive for the time in INGEST_TEST_LIVE.
func TestHelperProcess(t *testing.T) {
	if d, err := time.ParseDuration(os.Getenv("INGEST_TEST_LIVE")); err == nil {
		time.Sleep(d)
	}
}

// TestLeaseWait: --wait waits for the holder's end: its release, its
// process's end on this host, or its lease's expiry, whichever comes first.
// Before, a holder killed on this host was waited for until its lease
// expired (24 hours), whatever --wait said.
func TestLeaseWait(t *testing.T) {
	t.Run("the holder on this host ends", func(t *testing.T) {
		url := fakeS3(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
		cmd.Env = append(os.Environ(), "INGEST_TEST_LIVE=1s")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go cmd.Wait() // reaped when it ends, as its shell would
		host, _ := os.Hostname()
		body := leaseBody(publish.Holder{PID: cmd.Process.Pid, Host: host, Started: "2026-12-01T02:00:00Z"}, time.Now().Add(time.Hour))
		if err := writeObject(t, raw(t, url), ".lease", body); err != nil {
			t.Fatal(err)
		}
		s := open(t, url)
		if _, err := s.Acquire(context.Background(), 0); err == nil {
			t.Fatalf("got the lease of a live holder")
		}
		if rel, err := s.Acquire(context.Background(), time.Minute); err != nil {
			t.Errorf("got %v, want the lease once its holder's process ended", err)
		} else {
			rel()
		}
	})
	// The two below wait for a holder's end in a testing/synctest bubble,
	// on stores sharing one in-memory bucket: its clock moves when every
	// goroutine in it waits, so the second and a half they wait for is not
	// spent.
	t.Run("the holder releases", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s, _ := bucket.MemStores(2)
			release, err := s[0].Acquire(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			time.AfterFunc(300*time.Millisecond, func() { release() })
			start := time.Now()
			if rel, err := s[1].Acquire(context.Background(), time.Minute); err != nil {
				t.Errorf("got %v, want the lease once its holder gave it back", err)
			} else {
				rel()
			}
			if waited := time.Since(start); waited < 300*time.Millisecond || waited > time.Second {
				t.Errorf("got the lease after %s, want it soon after the release at 300ms", waited)
			}
		})
	})
	t.Run("the holder's lease expires", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s, objs := bucket.MemStores(1)
			expires := time.Now().Add(2 * time.Second)
			body := leaseBody(publish.Holder{PID: 1, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, expires)
			if err := writeObject(t, objs, ".lease", body); err != nil {
				t.Fatal(err)
			}
			if _, err := s[0].Acquire(context.Background(), 0); err == nil {
				t.Fatalf("got the lease before it expired")
			}
			if rel, err := s[0].Acquire(context.Background(), time.Minute); err != nil {
				t.Errorf("got %v, want the lease once it expired", err)
			} else {
				rel()
			}
			if now := time.Now(); now.Before(expires) || now.After(expires.Add(time.Second)) {
				t.Errorf("got the lease at %s, want it soon after its expiry at %s", now, expires)
			}
		})
	})
}

// TestLeaseRenewed: a held lease is renewed while its run lives, so a short
// TTL never lets another run in; a lease taken from under a run stops its
// publish before latest.json is written.
func TestLeaseRenewed(t *testing.T) {
	ctx := context.Background()
	// Renewal, in a testing/synctest bubble (stores on one in-memory
	// bucket): two seconds pass on the bubble's clock, not the test's.
	synctest.Test(t, func(t *testing.T) {
		s, objs := bucket.MemStores(2)
		a, b := s[0], s[1]
		a.LeaseTTL, b.LeaseTTL = 900*time.Millisecond, 900*time.Millisecond
		release, err := a.Acquire(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		expiry := func() time.Time {
			var l struct{ Expires string }
			body, err := readObject(t, objs, ".lease")
			if err != nil || json.Unmarshal(body, &l) != nil {
				t.Fatalf("read the lease: %v", err)
			}
			e, _ := time.Parse(time.RFC3339Nano, l.Expires)
			return e
		}
		first := expiry()
		time.Sleep(2 * time.Second) // past the first expiry: only renewal keeps it
		if got := expiry(); !got.After(first) {
			t.Errorf("got expiry %s after 2s, want later than %s: renewed", got, first)
		}
		if _, err := b.Acquire(ctx, 0); err == nil {
			t.Errorf("another run took a lease its holder keeps renewing")
		}
		if err := release(); err != nil {
			t.Fatal(err)
		}
	})

	// A lease taken from under a run, against a fake S3 server.
	url := fakeS3(t)
	a := open(t, url)
	if _, err := a.Acquire(ctx, 0); err != nil {
		t.Fatal(err)
	}
	stolen := leaseBody(publish.Holder{PID: 7, Host: "elsewhere", Started: "2026-12-01T02:00:00Z"}, time.Now().Add(time.Hour))
	if err := writeObject(t, raw(t, url), ".lease", stolen); err != nil {
		t.Fatal(err)
	}
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	if _, err := a.Publish(ctx, snap, 5); err == nil || !strings.Contains(err.Error(), "taken over by another run (pid 7 on elsewhere") {
		t.Errorf("publish under a lease taken over: got %v, want it refused", err)
	}
	if l, _ := a.ReadLatest(ctx); l != nil {
		t.Errorf("got latest.json written (%s) by a run that lost its lease", l.Name)
	}
}
