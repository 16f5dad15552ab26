package pgsync

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/internal/golden"
)

// TestReportText pins a sync's plan and report as ingest sync prints them,
// text and JSON, byte for byte, over each branch of the text: never synced,
// synced this snapshot or another, a table to create or migrate (with and
// without --migrate), an index kept, created or rebuilt. The JSON is
// encoded as the command encodes it (console.WriteJSON).
func TestReportText(t *testing.T) {
	snap := deliver.SnapshotRef{Dir: "out/published/latest", Name: "20261201T020000Z-4c19108f1cdf",
		CorpusFingerprint: "c0ffee", ChunksSHA256: "aa11", ManifestSHA256: "bb22", Embedder: "builtin-hash-v1", Dims: 1024,
		Documents: 3, Rows: 7}
	at := time.Date(2026, 12, 1, 2, 3, 4, 0, time.UTC)
	base := Plan{Target: "postgres://kb:***@db/kb", Table: "kb_semantic_chunks", Tenant: "0c000000-0000-4000-8000-00000000000c",
		SourceLabel: "ocean", Load: LoadCopy, Snapshot: snap, Migrations: []int{},
		Documents: DocCounts{Added: 1, Changed: 1, Regenerated: 0, Removed: 1, Unchanged: 1},
		Rows:      RowCounts{Insert: 3, Delete: 4, DeleteGone: 1, DeleteOldVersion: 2, DeleteRegenerated: 1, Keep: 4},
		Index:     IndexChange{Kind: IndexHNSW, Action: IndexKeep}}
	newTable := base // planned without --migrate
	newTable.CreateTable, newTable.Migrations = true, []int{1, 2}
	newTable.Index = IndexChange{Kind: IndexHNSW, Action: IndexCreate}
	same := base
	same.migrate, same.Migrations = true, []int{3}
	same.Last = &State{Snapshot: snap.Name, CorpusFingerprint: "c0ffee", ChunksSHA256: snap.ChunksSHA256,
		Embedder: "builtin-hash-v1", Dims: 1024, Rows: 7, Inserted: 7, SyncedAt: at}
	same.Index = IndexChange{Kind: IndexIVFFlat, Lists: 2, Action: IndexRebuild, Had: "hnsw"}
	other := base
	other.migrate, other.Load = true, LoadInsert
	other.Last = &State{Snapshot: "20261130T020000Z-0123456789ab", ChunksSHA256: "99ff", Embedder: "builtin-hash-v1", Dims: 1024,
		Rows: 8, Inserted: 1, Deleted: 2, SyncedAt: at.Add(-24 * time.Hour)}
	tests := []struct {
		name string
		rep  deliver.Report
	}{
		{"plan-new-table", &newTable},
		{"plan-migrate", &same},
		{"plan-last-other", &other},
		{"report-created", &Report{Plan: newTable, Inserted: 3, Deleted: 4, Seconds: 1.25}},
		{"report-migrated", &Report{Plan: same, Inserted: 3, Deleted: 4, Seconds: 0.5}},
		{"report-last-other", &Report{Plan: other, Inserted: 3, Deleted: 4, Seconds: 2}},
	}
	file := filepath.Join("testdata", "text.txtar")
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text, js bytes.Buffer
			if err := tt.rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			enc := json.NewEncoder(&js)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(tt.rep); err != nil {
				t.Fatal(err)
			}
			golden.CheckSection(t, file, ar, tt.name+".txt", text.Bytes())
			golden.CheckSection(t, file, ar, tt.name+".json", js.Bytes())
		})
	}
}
