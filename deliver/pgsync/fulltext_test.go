package pgsync_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// linked is a document whose words a reader sees differ from its Markdown:
// a link's target, a heading's hashes.
const linked = `# Exporters
Source: https://example.org/exporters

Exporters send telemetry to a backend. Pick one from the [exporter registry](/docs/kafka-zipkin/) before you deploy the collector.

### Batching

The batch processor groups spans before the exporter sends them.
`

// TestFullText: sync fills search_text from the snapshot and PostgreSQL
// its search_tsv, stemmed in the chunk's language, so a lexical query
// finds what a reader sees (a link's words, not its target); a row without
// search_text (synced from a snapshot before schema 5) is searched by its
// header and text.
func TestFullText(t *testing.T) {
	url := postgresURL(t)
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, map[string]string{"exporters.md": linked}), stages.Options{})
	table := tableFor(t, url)
	if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snap, URL: url, Table: table, Tenant: tenantA, Migrate: true}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{} // snapshot chunk id → search_text
	rows, err := artifacts.ReadChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rows {
		want[c.ChunkID] = c.SearchText
	}
	withConn(t, url, func(conn *pgx.Conn) {
		rows, err := conn.Query(context.Background(), "SELECT snapshot_chunk_id::text, search_text FROM "+table)
		if err != nil {
			t.Fatal(err)
		}
		var id, text string
		n := 0
		_, err = pgx.ForEachRow(rows, []any{&id, &text}, func() error {
			if n++; text != want[id] {
				t.Errorf("chunk %s: got search_text %q, want the snapshot's %q", id, text, want[id])
			}
			return nil
		})
		if err != nil || n != len(want) {
			t.Fatalf("got %d rows (%v), want %d", n, err, len(want))
		}
	})
	tests := []struct {
		name, lang, config, query string
		want                      int
	}{
		{"a link's words", "en", "english", "exporter registry", 1},
		{"a link's target is no word", "en", "english", "kafka", 0},
		{"a heading's words", "en", "english", "batching", 1},
		{"English stems", "en", "english", "exporting collectors", 1},
		{"Portuguese stems", "pt", "portuguese", "duna forte", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := count(t, url, "SELECT count(*) FROM "+table+" WHERE lang = $1 AND search_tsv @@ websearch_to_tsquery($2::regconfig, $3)", tt.lang, tt.config, tt.query)
			if got != tt.want {
				t.Errorf("got %d rows for %q, want %d", got, tt.query, tt.want)
			}
		})
	}
	t.Run("a row without search_text", func(t *testing.T) {
		exec(t, url, "UPDATE "+table+" SET search_text = NULL WHERE lang = 'pt'")
		if got := count(t, url, "SELECT count(*) FROM "+table+" WHERE search_tsv @@ websearch_to_tsquery('portuguese', 'dunas joaquina')"); got != 1 {
			t.Errorf("got %d rows, want the Portuguese chunk found by its header and text", got)
		}
	})
}
