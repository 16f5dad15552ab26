package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

const (
	pushTenant = "0c000000-0000-4000-8000-00000000000c"
	pushToken  = "planted-T0ken-cmd-77a1" // must appear in no output
)

func newPushReceiver(t *testing.T, opt receiver.Options) *receiver.Receiver {
	t.Helper()
	r, err := receiver.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// pushConfig is a config whose push polls tasks without a second's wait.
func pushConfig(t *testing.T, extra string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "push.yaml")
	if err := os.WriteFile(p, []byte("push: {poll_interval: 5ms, timeout: 10s"+extra+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPushCommand runs ingest push as a person would — bad flags, a plan,
// a push, an unchanged push, JSON, a server that refuses with the token in
// its message — with a token in the environment that no output may show.
func TestPushCommand(t *testing.T) {
	t.Setenv(pushTokenEnv, pushToken)
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	r := newPushReceiver(t, receiver.Options{Token: pushToken, AsyncEvery: 2})
	refusing := newPushReceiver(t, receiver.Options{Token: pushToken, Fault: func(int, *receiver.Request) receiver.Action {
		return receiver.Action{Status: 403, Body: "tenant not allowed for Bearer " + pushToken}
	}})
	cfg := pushConfig(t, "")
	state := t.TempDir()
	common := []string{"--snapshot", snap, "--tenant", pushTenant, "--config", cfg, "--state", state}
	headers := filepath.Join(t.TempDir(), "headers")
	os.WriteFile(headers, []byte("# secret\nX-Api-Key: "+pushToken+"\n"), 0o600)
	badHeaders := filepath.Join(t.TempDir(), "bad-headers")
	os.WriteFile(badHeaders, []byte("Idempotency-Key: "+pushToken+"\n"), 0o600)
	tests := []struct {
		name       string
		args       []string
		want       int
		wantOut    []string
		wantStderr string
	}{
		{"no --to", []string{"push", "--snapshot", snap}, exitUsage, nil, "push needs --snapshot DIR|URL and --to"},
		{"not a URL", append([]string{"push", "--to", "ftp://kb/ingest"}, common...), exitUsage, nil, "--to (push.to): ftp://kb/ingest: want https://HOST/PATH"},
		{"bad tenant", []string{"push", "--snapshot", snap, "--to", r.URL, "--tenant", "acme", "--state", state}, exitUsage, nil, `--tenant (push.tenant): "acme" is not a UUID`},
		{"token over plain http", append([]string{"push", "--to", "http://kb.example.org/ingest"}, common...), exitUsage, nil, "plain http"},
		{"reserved header", append([]string{"push", "--to", r.URL, "--header-file", badHeaders}, common...), exitUsage, nil, "bad-headers:1: header Idempotency-Key is the push's own"},
		{"plan", append([]string{"push", "--plan", "--to", r.URL}, common...), exitOK,
			[]string{"plan: push ", "(3 documents, 7 chunks, builtin-hash-v1 1024 dims)", "to " + r.URL + ", tenant " + pushTenant + ", source ocean",
				"last push: never", "documents: 3 added, 0 changed", "send: 7 chunks in 1 upsert requests; delete 0 versions", "nothing sent (--plan)"}, ""},
		{"push", append([]string{"push", "--to", r.URL, "--header-file", headers}, common...), exitOK,
			[]string{"push ", "documents: 3 added", "pushed in "}, ""},
		{"unchanged", append([]string{"push", "--to", r.URL}, common...), exitOK,
			[]string{"last push: ", "documents: 0 added, 0 changed, 0 regenerated, 0 resent, 0 removed, 3 unchanged", "send: 0 chunks in 0 upsert requests", ": 0 requests (0 retries)"}, ""},
		{"refused", []string{"push", "--snapshot", snap, "--to", refusing.URL, "--tenant", pushTenant, "--config", cfg, "--state", t.TempDir()}, exitFailed, nil,
			"upsert of pt-BR/lore/joaquina.md, safety/rules.md, waves.md (request 1): 403 Forbidden: tenant not allowed for Bearer ***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.want || !strings.Contains(stderr, tt.wantStderr) {
				t.Fatalf("got exit %d, stderr %q; want exit %d, stderr with %q", code, stderr, tt.want, tt.wantStderr)
			}
			at := 0
			for _, w := range tt.wantOut {
				i := strings.Index(stdout[at:], w)
				if i < 0 {
					t.Fatalf("stdout lacks %q after byte %d:\n%s", w, at, stdout)
				}
				at += i + len(w)
			}
			if strings.Contains(stdout+stderr, pushToken) {
				t.Errorf("the token is in the output:\n%s%s", stdout, stderr)
			}
		})
	}
	checkReceiverHolds(t, r, snap)
	code, stdout, stderr := runCLI(context.Background(), "", append([]string{"push", "--json", "--to", r.URL}, common...)...)
	var rep struct {
		Documents struct{ Unchanged int }
		Sent      struct{ Requests int }
		TraceID   string `json:"trace_id"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); code != exitOK || err != nil || rep.Documents.Unchanged != 3 || rep.Sent.Requests != 0 || len(rep.TraceID) != 32 {
		t.Errorf("push --json: exit %d, %v, %+v; want 0, 3 unchanged, 0 requests, a trace id:\n%s%s", code, err, rep, stdout, stderr)
	}
	for _, f := range []string{"state.json", "audit.jsonl"} {
		b, err := os.ReadFile(filepath.Join(state, f))
		if err != nil || strings.Contains(string(b), pushToken) {
			t.Errorf("%s: %v, or it holds the token", f, err)
		}
	}
}

// checkReceiverHolds fails unless the receiver holds exactly the
// snapshot's chunks and no request broke the contract.
func checkReceiverHolds(t *testing.T, r *receiver.Receiver, snap string) {
	t.Helper()
	want, err := receiver.SnapshotRows(snap, pushTenant)
	if err != nil {
		t.Fatal(err)
	}
	if d := receiver.Diff(r.Dump(), want); d != "" {
		t.Errorf("the receiver does not hold %s:\n%s", snap, d)
	}
	if inv := r.Stats().Invalid; len(inv) > 0 {
		t.Errorf("requests broke the contract: %q", inv)
	}
}
