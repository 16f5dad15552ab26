package push

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/internal/golden"
)

// TestReportText pins a push's plan and report as ingest push prints them,
// text and JSON, byte for byte: never pushed, pushed before and resumed.
// The JSON is encoded as the command encodes it (console.WriteJSON).
func TestReportText(t *testing.T) {
	t.Parallel()
	snap := deliver.SnapshotRef{Dir: "out/published/latest", Name: "20261201T020000Z-4c19108f1cdf",
		CorpusFingerprint: "c0ffee", ChunksSHA256: "aa11", ManifestSHA256: "bb22", Embedder: "builtin-hash-v1", Dims: 1024,
		Documents: 3, Rows: 7}
	never := Plan{Destination: "https://***@kb.internal/v1/ingest", Tenant: "0c000000-0000-4000-8000-00000000000c", SourceLabel: "ocean",
		Snapshot: snap, State: "out/published/push-0a1b2c3d4e5f",
		Documents: DocCounts{Added: 3}, Chunks: 7, Requests: RequestCounts{Upsert: 1}, Bytes: 12345}
	resumed := never
	resumed.Full = true
	resumed.Last = &LastPush{Snapshot: "20261130T020000Z-0123456789ab", PushedAt: "2026-11-30T02:05:00Z", Documents: 3}
	resumed.Documents = DocCounts{Added: 1, Changed: 1, Regenerated: 1, Resent: 1, Removed: 1, Unchanged: 0}
	resumed.Deletes = DeleteCounts{Removed: 1, Superseded: 1}
	resumed.Requests = RequestCounts{Upsert: 2, Delete: 1}
	resumed.Resume = Resume{Skipped: 2, Tasks: 1}
	tests := []struct {
		name string
		rep  deliver.Report
	}{
		{"plan-never", &never},
		{"plan-resumed", &resumed},
		{"report", &Report{Plan: resumed, Sent: counts{Requests: 4, Retries: 1, Polls: 2, Bytes: 23456}, Seconds: 3.5,
			TraceID: "0af7651916cd43dd8448eb211c80319c"}},
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
