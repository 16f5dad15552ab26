package pgsync_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// buildSource builds a snapshot of files as the source labelled label.
func buildSource(t *testing.T, label string, files map[string]string) string {
	t.Helper()
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers, cfg.SourceLabel = stagestest.WriteCorpus(t, files, nil), 1, label
	out := filepath.Join(t.TempDir(), "snap")
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(out, ""), stages.Options{}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSyncTwoSources: two sources of one tenant that both hold README.md
// with the same text sync into one table side by side (the second sync
// failed with a raw duplicate key on (tenant_id, doc_id, version_id,
// chunk_order): doc_id came from the path alone).
func TestSyncTwoSources(t *testing.T) {
	url := postgresURL(t)
	table := tableFor(t, url)
	readme := map[string]string{"README.md": stagestest.Base["waves.md"]}
	books, repo := buildSource(t, "books", readme), buildSource(t, "repo", readme)
	for i, snap := range []string{books, repo} {
		if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snap, URL: url, Table: table, Tenant: tenantA, Migrate: i == 0}); err != nil {
			t.Fatalf("sync %s: %v", snap, err)
		}
	}
	rows := count(t, url, "SELECT count(*) FROM "+table+" WHERE tenant_id = $1", tenantA)
	docs := count(t, url, "SELECT count(DISTINCT doc_id) FROM "+table+" WHERE tenant_id = $1", tenantA)
	chunks, err := artifacts.ReadChunks(filepath.Join(books, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	if rows != 2*len(chunks) || docs != 2 {
		t.Errorf("got %d rows of %d documents, want %d rows of 2 (one README.md per source)", rows, docs, 2*len(chunks))
	}
}

// TestSyncReplacesOldIDs: a table holding a source's rows under the ids of
// the build before schema 3 (doc_id from the path alone) is brought to the
// new ids by the next sync of that source, in its one transaction: every
// old row deleted, every new one inserted, nothing else touched.
func TestSyncReplacesOldIDs(t *testing.T) {
	url := postgresURL(t)
	table := tableFor(t, url)
	snap := buildSource(t, "books", stagestest.Base)
	old := withOldDocIDs(t, snap)
	if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: old, URL: url, Table: table, Tenant: tenantA, Migrate: true}); err != nil {
		t.Fatal(err)
	}
	rep, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snap, URL: url, Table: table, Tenant: tenantA})
	if err != nil {
		t.Fatal(err)
	}
	n := rep.Snapshot.Rows
	if rep.Inserted != int64(n) || rep.Deleted != int64(n) {
		t.Errorf("got +%d -%d, want every one of the %d rows replaced", rep.Inserted, rep.Deleted, n)
	}
	chunks, err := artifacts.ReadChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if got := count(t, url, "SELECT count(*) FROM "+table+" WHERE doc_id = $1 AND chunk_order = $2", c.DocID, c.Order); got != 1 {
			t.Errorf("%s: got %d rows under its new doc_id, want 1", c.Key(), got)
		}
	}
}

// withOldDocIDs copies a snapshot with its doc_ids as the build before
// schema 3 derived them: UUIDv5 of the path alone.
func withOldDocIDs(t *testing.T, snap string) string {
	t.Helper()
	oldSpace := uuid.MustParse("6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50") // chunking's id namespace
	dir := stagestest.Copy(t, snap)
	path := filepath.Join(dir, artifacts.ChunksFile)
	chunks, err := artifacts.ReadChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := artifacts.NewChunkWriter(path, m.Embedder.Dims)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		c.DocID = uuid.NewSHA1(oldSpace, []byte(c.DocPath)).String()
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := artifacts.Describe(path)
	if err != nil {
		t.Fatal(err)
	}
	info.Rows = m.Files[artifacts.ChunksFile].Rows
	m.Files[artifacts.ChunksFile] = info
	if err := artifacts.WriteJSON(filepath.Join(dir, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	return dir
}
