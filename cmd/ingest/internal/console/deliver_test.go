package console

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/deliver/push"
	"github.com/ocean-safety/ingest/internal/golden"
)

// deliverySnapshot is the snapshot every rendered report below names.
var deliverySnapshot = deliver.SnapshotRef{Dir: "out/published/latest", Name: "20261201T020000Z-4c19108f1cdf",
	CorpusFingerprint: "c0ffee", ChunksSHA256: "aa11", ManifestSHA256: "bb22", Embedder: "builtin-hash-v1", Dims: 1024,
	Documents: 3, Rows: 7}

// TestSyncRendering pins the text and JSON of a sync's plan and report,
// byte for byte, over each branch of the text: never synced, synced this
// snapshot or another, a table to create or migrate, an index kept, created
// or rebuilt.
func TestSyncRendering(t *testing.T) {
	at := time.Date(2026, 12, 1, 2, 3, 4, 0, time.UTC)
	base := pgsync.Plan{Target: "postgres://kb:***@db/kb", Table: "kb_semantic_chunks", Tenant: "0c000000-0000-4000-8000-00000000000c",
		SourceLabel: "ocean", Load: pgsync.LoadCopy, Snapshot: deliverySnapshot, Migrations: []int{},
		Documents: pgsync.DocCounts{Added: 1, Changed: 1, Regenerated: 0, Removed: 1, Unchanged: 1},
		Rows:      pgsync.RowCounts{Insert: 3, Delete: 4, DeleteGone: 1, DeleteOldVersion: 2, DeleteRegenerated: 1, Keep: 4},
		Index:     pgsync.IndexChange{Kind: pgsync.IndexHNSW, Action: pgsync.IndexKeep}}
	newTable := base
	newTable.CreateTable, newTable.Migrations = true, []int{1, 2}
	newTable.Index = pgsync.IndexChange{Kind: pgsync.IndexHNSW, Action: pgsync.IndexCreate}
	same := base
	same.Migrations = []int{3}
	same.Last = &pgsync.State{Snapshot: deliverySnapshot.Name, CorpusFingerprint: "c0ffee", ChunksSHA256: deliverySnapshot.ChunksSHA256,
		Embedder: "builtin-hash-v1", Dims: 1024, Rows: 7, Inserted: 7, SyncedAt: at}
	same.Index = pgsync.IndexChange{Kind: pgsync.IndexIVFFlat, Lists: 2, Action: pgsync.IndexRebuild, Had: "hnsw"}
	other := base
	other.Load = pgsync.LoadInsert
	other.Last = &pgsync.State{Snapshot: "20261130T020000Z-0123456789ab", ChunksSHA256: "99ff", Embedder: "builtin-hash-v1", Dims: 1024,
		Rows: 8, Inserted: 1, Deleted: 2, SyncedAt: at.Add(-24 * time.Hour)}
	tests := []struct {
		name string
		text func(*bytes.Buffer)
		v    any
	}{
		{"plan-new-table", func(b *bytes.Buffer) { PrintSyncPlan(b, &newTable, true) }, &newTable},
		{"plan-migrate", func(b *bytes.Buffer) { PrintSyncPlan(b, &same, false) }, &same},
		{"plan-last-other", func(b *bytes.Buffer) { PrintSyncPlan(b, &other, false) }, &other},
		{"report-created", func(b *bytes.Buffer) {
			PrintSyncReport(b, &pgsync.Report{Plan: newTable, Inserted: 3, Deleted: 4, Seconds: 1.25})
		}, &pgsync.Report{Plan: newTable, Inserted: 3, Deleted: 4, Seconds: 1.25}},
		{"report-migrated", func(b *bytes.Buffer) {
			PrintSyncReport(b, &pgsync.Report{Plan: same, Inserted: 3, Deleted: 4, Seconds: 0.5})
		},
			&pgsync.Report{Plan: same, Inserted: 3, Deleted: 4, Seconds: 0.5}},
		{"report-last-other", func(b *bytes.Buffer) {
			PrintSyncReport(b, &pgsync.Report{Plan: other, Inserted: 3, Deleted: 4, Seconds: 2})
		},
			&pgsync.Report{Plan: other, Inserted: 3, Deleted: 4, Seconds: 2}},
	}
	checkRendering(t, filepath.Join("testdata", "sync.txtar"), tests)
}

// TestPushRendering pins the text and JSON of a push's plan and report,
// byte for byte: never pushed, pushed before and resumed.
func TestPushRendering(t *testing.T) {
	never := push.Plan{Destination: "https://***@kb.internal/v1/ingest", Tenant: "0c000000-0000-4000-8000-00000000000c", SourceLabel: "ocean",
		Snapshot: deliverySnapshot, State: "out/published/push-0a1b2c3d4e5f",
		Documents: push.DocCounts{Added: 3}, Chunks: 7, Requests: push.RequestCounts{Upsert: 1}, Bytes: 12345}
	resumed := never
	resumed.Full = true
	resumed.Last = &push.LastPush{Snapshot: "20261130T020000Z-0123456789ab", PushedAt: "2026-11-30T02:05:00Z", Documents: 3}
	resumed.Documents = push.DocCounts{Added: 1, Changed: 1, Regenerated: 1, Resent: 1, Removed: 1, Unchanged: 0}
	resumed.Deletes = push.DeleteCounts{Removed: 1, Superseded: 1}
	resumed.Requests = push.RequestCounts{Upsert: 2, Delete: 1}
	resumed.Resume = push.Resume{Skipped: 2, Tasks: 1}
	rep := &push.Report{Plan: resumed, Seconds: 3.5, TraceID: "0af7651916cd43dd8448eb211c80319c"}
	rep.Sent.Requests, rep.Sent.Retries, rep.Sent.Polls, rep.Sent.Bytes = 4, 1, 2, 23456
	tests := []struct {
		name string
		text func(*bytes.Buffer)
		v    any
	}{
		{"plan-never", func(b *bytes.Buffer) { PrintPushPlan(b, &never) }, &never},
		{"plan-resumed", func(b *bytes.Buffer) { PrintPushPlan(b, &resumed) }, &resumed},
		{"report", func(b *bytes.Buffer) { PrintPushReport(b, rep) }, rep},
	}
	checkRendering(t, filepath.Join("testdata", "push.txtar"), tests)
}

// checkRendering compares each case's text and JSON with the sections
// NAME.txt and NAME.json of the archive file.
func checkRendering(t *testing.T, file string, tests []struct {
	name string
	text func(*bytes.Buffer)
	v    any
}) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		if !golden.Updating() {
			t.Fatal(err)
		}
		ar = &txtar.Archive{}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text, js bytes.Buffer
			tt.text(&text)
			if err := WriteJSON(&js, tt.v); err != nil {
				t.Fatal(err)
			}
			golden.CheckSection(t, file, ar, tt.name+".txt", text.Bytes())
			golden.CheckSection(t, file, ar, tt.name+".json", js.Bytes())
		})
	}
}
