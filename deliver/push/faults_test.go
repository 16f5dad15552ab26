package push

import (
	"bufio"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver/push/pushconf"
	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/schema"
)

// TestPushFaults scripts the receiver's answers to the first requests and
// checks each fault is handled as the contract says: retried (429 after
// its Retry-After, 5xx, a stalled request after the timeout, 409) or
// stopping the push with the document and the server's message, the token
// removed; a redirect to another host is not followed (so never carries
// the token); an answer
// over the cap is refused; a failed task fails the push with its message.
func TestPushFaults(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	var mu sync.Mutex
	var otherAuth []string // Authorization headers the other host got
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		otherAuth = append(otherAuth, req.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(w, "who are you", http.StatusUnauthorized)
	}))
	t.Cleanup(other.Close) // the parallel cases run after this function returns

	tests := []struct {
		name      string
		fault     func(r *receiver.Receiver) func(n int, rq *receiver.Request) receiver.Action
		wantErr   string        // "" for a push that succeeds
		wantWait  time.Duration // a wait the push must have asked for
		wantFirst string        // the document the error names
		timeout   time.Duration // the request timeout, if not a generous one
	}{
		{name: "429 with Retry-After", wantWait: 7 * time.Second, fault: first(2, receiver.Action{Status: 429, RetryAfter: "7", Body: `{"error":"slow down"}`})},
		{name: "503 then fine", fault: first(3, receiver.Action{Status: 503, Body: "maintenance"})},
		{name: "stall past the timeout", timeout: 5 * time.Second, fault: first(1, receiver.Action{Stall: time.Minute})},
		{name: "409 key in progress", fault: first(1, receiver.Action{Status: 409, Body: "in progress"})},
		{name: "400 stops, message scrubbed", fault: first(1, receiver.Action{Status: 400,
			Body: `{"error":{"message":"bad chunk; your header was Bearer ` + token + `"}}`}),
			wantErr: "400 Bad Request: bad chunk; your header was Bearer ***", wantFirst: "beaufort-scale.md"},
		{name: "422 stops", fault: first(1, receiver.Action{Status: 422, Body: "embedding has 1023 floats"}),
			wantErr: "422 Unprocessable Entity: embedding has 1023 floats", wantFirst: "upsert of beaufort-scale.md"},
		{name: "retries run out", fault: first(100, receiver.Action{Status: 502, Body: "bad gateway"}), wantErr: "502 Bad Gateway: bad gateway (after 9 tries)"},
		{name: "Retry-After too long", fault: first(1, receiver.Action{Status: 429, RetryAfter: "86400"}), wantErr: "asks to retry after 24h0m0s"},
		{name: "redirect to another host", fault: first(1, receiver.Action{Redirect: other.URL + "/ingest"}), wantErr: "not followed (a POST is re-sent to the destination's own origin only)"},
		{name: "redirect on the same host", fault: func(r *receiver.Receiver) func(int, *receiver.Request) receiver.Action {
			return first(1, receiver.Action{Redirect: r.URL + "?moved=1"})(r)
		}},
		{name: "answer over the cap", fault: first(1, receiver.Action{Huge: 2 << 20}), wantErr: "with an answer over 1048576 bytes"},
		{name: "failed task", fault: first(1, receiver.Action{FailTask: "index rebuild failed"}), wantErr: "the destination's task failed: index rebuild failed"},
		{name: "lost acknowledgement", fault: first(1, receiver.Action{LoseAnswer: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newReceiver(t, receiver.Options{Token: token})
			r.SetOptions(receiver.Options{Token: token, Fault: tt.fault(r)})
			opt := options(t, r, snap, t.TempDir())
			// A short timeout only where the case is about it, and not too
			// short even there (the stall is a minute): under load and
			// -race, a 300 ms one timed out requests the case means to be
			// answered (a 429 whose Retry-After is the point, 2 MB over
			// the cap, every retry of the stalled one), and the push
			// retried or failed for the wrong reason.
			opt.Settings.Timeout = cmp.Or(tt.timeout, 30*time.Second)
			if tt.wantFirst != "" {
				// The first request the receiver gets is the first batch's
				// only when batches go one at a time; at 4, under load,
				// another may arrive first.
				opt.Settings.Tasks = 1
			}
			w := &waits{}
			opt.sleep = w.sleep
			rep, err := Push(context.Background(), opt)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want a push that succeeds", err)
				}
				checkHolds(t, r, snap)
				if st := r.Stats(); st.DoubleApplied != 0 {
					t.Errorf("got %d requests applied twice, want 0", st.DoubleApplied)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.wantFirst) {
				t.Fatalf("got error %v, want one with %q naming %q", err, tt.wantErr, tt.wantFirst)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("the token is in the error: %v", err)
			}
			if tt.wantWait > 0 && !containsDuration(w.all(), tt.wantWait) {
				t.Errorf("got waits %v, want one of %s (Retry-After)", w.all(), tt.wantWait)
			}
			if rep != nil && rep.Sent.Retries == 0 && tt.wantErr == "" && tt.name != "redirect on the same host" && tt.name != "lost acknowledgement" {
				t.Errorf("got no retry, want some")
			}
		})
	}
	for _, a := range otherAuth {
		if a != "" {
			t.Errorf("the other host got Authorization %q, want none", a)
		}
	}
	if len(otherAuth) != 0 {
		t.Errorf("the other host got %d requests, want none: a POST is not redirected to another origin", len(otherAuth))
	}
}

// first answers the first n arrivals with act.
func first(n int, act receiver.Action) func(*receiver.Receiver) func(int, *receiver.Request) receiver.Action {
	return func(*receiver.Receiver) func(int, *receiver.Request) receiver.Action {
		return func(i int, _ *receiver.Request) receiver.Action {
			if i <= n {
				return act
			}
			return receiver.Action{}
		}
	}
}

func containsDuration(ds []time.Duration, d time.Duration) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// TestPushBounds checks the push keeps at most in_flight requests and
// tasks outstanding at the receiver, with every request answered 202.
func TestPushBounds(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	r := newReceiver(t, receiver.Options{Token: token, AsyncEvery: 1, TaskPolls: 2})
	opt := options(t, r, snap, t.TempDir())
	opt.Settings.InFlight, opt.Settings.Tasks = 2, 3
	opt.sleep = nil // real (millisecond) waits, so tasks overlap
	if _, err := Push(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	checkHolds(t, r, snap)
	st := r.Stats()
	if st.MaxInFlight > 2 || st.MaxTasks > 3 || st.MaxTasks < 2 {
		t.Errorf("got %d requests in flight and %d tasks pending at most; want at most 2, and 2 to 3", st.MaxInFlight, st.MaxTasks)
	}
}

// TestPlanSendsNothing checks --plan sends no request and says the
// requests and bytes the push then sends.
func TestPlanSendsNothing(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	r := newReceiver(t, receiver.Options{Token: token})
	opt := options(t, r, snap, t.TempDir())
	plan, err := PlanPush(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stats(); st.Requests != 0 {
		t.Fatalf("the plan sent %d requests, want 0", st.Requests)
	}
	if _, err := os.Stat(opt.Settings.State); err != nil {
		t.Fatal(err)
	}
	rep, err := Push(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Requests != rep.Requests || plan.Bytes != rep.Sent.Bytes || plan.Chunks != rep.Chunks || plan.Chunks != rep.Snapshot.Rows {
		t.Errorf("plan: %+v, %d bytes, %d chunks; push: %+v, %d bytes, %d chunks of %d", plan.Requests, plan.Bytes, plan.Chunks,
			rep.Requests, rep.Sent.Bytes, rep.Chunks, rep.Snapshot.Rows)
	}
}

// TestAudit checks the audit records: the four kinds, every pushed
// version's chunk hashes the SHA-256 of its chunks' text, deletes named,
// the traceparent of the push's trace, and no embedding or token.
func TestAudit(t *testing.T) {
	t.Parallel()
	first, edited := snapshotOf(t, nil), snapshotOf(t, editParagraph(t))
	r := newReceiver(t, receiver.Options{Token: token, AsyncEvery: 2})
	state := t.TempDir()
	var traces []string
	for _, snap := range []string{first, edited} {
		rep, err := Push(context.Background(), options(t, r, snap, state))
		if err != nil {
			t.Fatal(err)
		}
		traces = append(traces, rep.TraceID)
	}
	b, err := os.ReadFile(filepath.Join(state, auditFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"embedding"`) || strings.Contains(string(b), token) {
		t.Error("audit.jsonl holds an embedding or the token")
	}
	texts := map[string]map[string]string{} // version → chunk hash → text
	for _, snap := range []string{first, edited} {
		chunks, err := artifacts.ReadChunks(filepath.Join(snap, artifacts.ChunksFile))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			v := versionOf(c)
			if texts[v] == nil {
				texts[v] = map[string]string{}
			}
			texts[v][c.ContentHash] = c.Text
		}
	}
	kinds := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		var rec AuditRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		kinds[rec.Kind]++
		if rec.TraceID != traces[0] && rec.TraceID != traces[1] {
			t.Errorf("%s: trace %s is neither push's", rec.Kind, rec.TraceID)
		}
		if rec.Traceparent != "" && !strings.Contains(rec.Traceparent, "-"+rec.TraceID+"-") {
			t.Errorf("%s: traceparent %s is not of trace %s", rec.Kind, rec.Traceparent, rec.TraceID)
		}
		if rec.Kind == AuditPushed {
			if len(rec.ChunkSHA256) != rec.ChunkCount || rec.ChunkCount == 0 {
				t.Errorf("%s: %d hashes for %d chunks", rec.DocPath, len(rec.ChunkSHA256), rec.ChunkCount)
			}
			for _, h := range rec.ChunkSHA256 {
				text, ok := texts[rec.VersionID][h]
				sum := sha256.Sum256([]byte(text))
				if !ok || hex.EncodeToString(sum[:]) != h {
					t.Errorf("%s: hash %s is not of a chunk's text of version %s", rec.DocPath, h, rec.VersionID)
				}
			}
		}
		if rec.Kind == AuditDeleted && (rec.DocPath != "rip-currents.md" || rec.Reason != ReasonSuperseded) {
			t.Errorf("deleted %s (%s), want rip-currents.md superseded", rec.DocPath, rec.Reason)
		}
	}
	want := map[string]int{AuditStarted: 2, AuditPushed: 30, AuditDeleted: 1, AuditFinished: 2}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("got %d %s records, want %d", kinds[k], k, n)
		}
	}
}

func versionOf(c schema.Chunk) string {
	d, _ := encodeDoc([]schema.Chunk{c}, wireModels{})
	return d.ctx.VersionID
}

// TestTokenOverPlainHTTP checks a token is not sent over http to another
// machine.
func TestTokenOverPlainHTTP(t *testing.T) {
	t.Parallel()
	opt := Options{Snapshot: t.TempDir(), Settings: pushconf.DefaultSettings(), Token: token, StateRoot: t.TempDir()}
	opt.Settings.To = "http://kb.example.org/ingest"
	_, err := Push(context.Background(), opt)
	var se *schema.SettingError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "plain http") {
		t.Errorf("got %v, want a push.to setting error about plain http", err)
	}
}
