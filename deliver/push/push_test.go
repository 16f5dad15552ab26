package push

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ocean-safety/ingest/deliver/push/receiver"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestPushNights pushes what a destination sees night after night: a first
// push, an unchanged one (no request), a one-paragraph edit (only that
// document's new version sent, the old one deleted), a removed document
// (deleted); after each, the receiver holds exactly the snapshot.
func TestPushNights(t *testing.T) {
	t.Parallel()
	r := newReceiver(t, receiver.Options{Token: token, AsyncEvery: 3, TaskPolls: 1})
	state := t.TempDir()
	var mu sync.Mutex
	var seen []*receiver.Request
	r.SetOptions(receiver.Options{Token: token, AsyncEvery: 3, TaskPolls: 1, OnArrive: func(_ int, rq *receiver.Request) bool {
		mu.Lock()
		seen = append(seen, rq)
		mu.Unlock()
		return false
	}})
	first := snapshotOf(t, nil)
	edited := snapshotOf(t, editParagraph(t))
	removed := snapshotOf(t, map[string]string{"rip-currents.md": editParagraph(t)["rip-currents.md"], "cold-water.md": stagestest.Gone})

	tests := []struct {
		name       string
		snap       string
		wantDocs   []string // doc paths of the upserts, in order
		wantDelete DeleteCounts
		wantCounts DocCounts
	}{
		{name: "first push", snap: first, wantCounts: DocCounts{Added: 29}},
		{name: "unchanged", snap: first, wantCounts: DocCounts{Unchanged: 29}},
		{name: "one paragraph edited", snap: edited, wantDocs: []string{"rip-currents.md"},
			wantDelete: DeleteCounts{Superseded: 1}, wantCounts: DocCounts{Changed: 1, Unchanged: 28}},
		{name: "a document removed", snap: removed, wantDelete: DeleteCounts{Removed: 1},
			wantCounts: DocCounts{Removed: 1, Unchanged: 28}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen = nil
			r.ResetStats()
			rep, err := Push(context.Background(), options(t, r, tt.snap, state))
			if err != nil {
				t.Fatal(err)
			}
			checkHolds(t, r, tt.snap)
			if rep.Documents != tt.wantCounts || rep.Deletes != tt.wantDelete {
				t.Errorf("got documents %+v, deletes %+v; want %+v, %+v", rep.Documents, rep.Deletes, tt.wantCounts, tt.wantDelete)
			}
			st := r.Stats()
			if st.Requests != rep.Sent.Requests || int64(st.Bytes) != rep.Sent.Bytes {
				t.Errorf("the receiver got %d requests, %d bytes; the report says %d, %d", st.Requests, st.Bytes, rep.Sent.Requests, rep.Sent.Bytes)
			}
			if i == 0 {
				if rep.Requests.Upsert < 20 || st.Polls == 0 {
					t.Errorf("got %d upsert requests and %d polls; want over 20 (ten chunks a request) and some polls", rep.Requests.Upsert, st.Polls)
				}
				return
			}
			var docs []string
			for _, rq := range seen {
				docs = append(docs, rq.Docs...)
			}
			docs = slices.Compact(docs)
			if !slices.Equal(docs, tt.wantDocs) {
				t.Errorf("got upserts of %q, want %q", docs, tt.wantDocs)
			}
			wantReq := len(tt.wantDocs)
			if tt.wantDelete != (DeleteCounts{}) {
				wantReq++
			}
			if st.Requests != wantReq {
				t.Errorf("got %d requests, want %d", st.Requests, wantReq)
			}
		})
	}
}

// TestPushFull checks --full sends every document again under new keys
// (the receiver applies them, not replays them) and leaves it as it was.
func TestPushFull(t *testing.T) {
	t.Parallel()
	snap := snapshotOf(t, nil)
	r := newReceiver(t, receiver.Options{Token: token})
	state := t.TempDir()
	if _, err := Push(context.Background(), options(t, r, snap, state)); err != nil {
		t.Fatal(err)
	}
	r.ResetStats()
	opt := options(t, r, snap, state)
	opt.Full = true
	rep, err := Push(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Stats()
	if rep.Documents.Resent != 29 || st.Upserts != rep.Requests.Upsert || st.Replays != 0 || st.Upserts == 0 {
		t.Errorf("got %d resent, %d applied of %d upserts, %d replays; want 29, all applied, 0 replays",
			rep.Documents.Resent, st.Upserts, rep.Requests.Upsert, st.Replays)
	}
	checkHolds(t, r, snap)
}

// TestJournalTornLine checks a journal whose last line a kill cut short
// is read without it, and a bad line before the last is skipped with a
// warning naming it.
func TestJournalTornLine(t *testing.T) {
	t.Parallel()
	good := `{"key":"a","event":"done","op":"delete"}` + "\n" + `{"key":"b","event":"done","op":"delete"}` + "\n"
	tests := []struct {
		name, text, wantErr string
		want                int
	}{
		{"whole", good, "", 2},
		{"torn last line", good + `{"key":"c","ev`, "", 2},
		{"bad middle line", `{"key":"a"` + "\n" + good, "journal.jsonl:1: not a journal line", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, journalFile), []byte(tt.text), 0o600)
			lines, warns, err := (&folder{dir: dir}).readJournal()
			if tt.wantErr != "" && (len(warns) != 1 || !strings.Contains(warns[0], tt.wantErr)) {
				t.Errorf("got warnings %q, want one with %q", warns, tt.wantErr)
			}
			if err != nil || len(lines) != tt.want {
				t.Errorf("got %d lines, %v; want %d", len(lines), err, tt.want)
			}
		})
	}
}
