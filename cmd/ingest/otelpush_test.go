package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/internal/slowtest"
)

// TestOtelPush measures ingest push of the OpenTelemetry docs (en, the
// README's two-line config) against the reference receiver, answering
// every request at once: a first push, an unchanged night, and a night
// after a one-paragraph edit. It logs requests, bytes, seconds and the
// receiver's rows (just bench-push), and checks the receiver holds each
// snapshot exactly and the nights send only what changed.
func TestOtelPush(t *testing.T) {
	src := filepath.Join(otelCorpus, "en")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", src, err)
	}
	if testing.Short() {
		t.Skip("a real corpus: about 30 s")
	}
	slowtest.Mark(t, "the OpenTelemetry docs indexed twice and pushed three nights: about 30 s")
	t.Setenv(pushTokenEnv, pushToken)
	root := t.TempDir()
	cfg := filepath.Join(root, "otel.yaml")
	os.WriteFile(cfg, []byte(otelConfig+"tenant_id: "+pushTenant+"\n"), 0o644)
	corpus := filepath.Join(root, "en")
	copyTree(t, src, corpus)
	first, edited := filepath.Join(root, "first"), filepath.Join(root, "edited")
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpus, "--out", first, "--config", cfg, "--quiet"); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	editedPath := editOneParagraph(t, corpus)
	if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpus, "--out", edited, "--prev", first, "--config", cfg, "--quiet"); code != exitOK {
		t.Fatalf("index the edit: exit %d: %s", code, stderr)
	}

	r := newPushReceiver(t, receiver.Options{Token: pushToken})
	state := t.TempDir()
	for _, night := range []struct {
		name, snap string
		wantReq    func(requests, chunks int, docs map[string]int) bool
	}{
		{"first push", first, func(n, chunks int, d map[string]int) bool { return n >= chunks/10 && d["added"] > 600 }},
		{"unchanged night", first, func(n, _ int, d map[string]int) bool { return n == 0 && d["added"]+d["changed"] == 0 }},
		{"one paragraph edited", edited, func(n, chunks int, d map[string]int) bool { // the new version in parts of ten, the old one's delete
			return d["changed"] == 1 && d["added"] == 0 && n == (chunks+9)/10+1
		}},
	} {
		r.ResetStats()
		code, stdout, stderr := runCLI(context.Background(), "", "push", "--snapshot", night.snap, "--to", r.URL, "--state", state, "--json")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", night.name, code, stderr)
		}
		var rep struct {
			Documents map[string]int
			Chunks    int
			Seconds   float64
			Sent      struct {
				Requests int
				Bytes    int64
			}
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		st, c := r.Stats(), r.Counts()
		t.Logf("otel_push %-21s %4d requests (receiver: %4d), %9d bytes gzip, %6.2f s; %4d chunks sent; receiver holds %d rows, %d versions, %d documents; documents %v",
			night.name+":", rep.Sent.Requests, st.Requests, rep.Sent.Bytes, rep.Seconds, rep.Chunks, c.Rows, c.Versions, c.Documents, rep.Documents)
		if !night.wantReq(st.Requests, rep.Chunks, rep.Documents) || st.Requests != rep.Sent.Requests {
			t.Errorf("%s: got %d requests at the receiver (%d reported)", night.name, st.Requests, rep.Sent.Requests)
		}
		checkReceiverHolds(t, r, night.snap)
		if strings.Contains(stdout+stderr, pushToken) {
			t.Errorf("%s: the token is in the output", night.name)
		}
	}
	t.Logf("otel_push edited document: %s", editedPath)
}

// editOneParagraph appends a sentence to the first long prose line of the
// corpus's first document that has one, and returns its path.
func editOneParagraph(t *testing.T, corpus string) string {
	t.Helper()
	p := filepath.Join(corpus, "docs", "concepts", "observability-primer.md")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if len(l) > 120 && l[0] >= 'A' && l[0] <= 'Z' && !strings.Contains(l, "{{") {
			lines[i] = l + " This sentence was added tonight."
			if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(corpus, p)
			return rel
		}
	}
	t.Fatalf("%s has no long prose line to edit", p)
	return ""
}
