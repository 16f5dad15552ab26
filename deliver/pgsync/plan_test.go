package pgsync_test

import (
	"context"
	"testing"

	"github.com/ocean-safety/ingest/deliver/pgsync"
)

// TestPlan checks that a plan says what the sync then does, and changes
// nothing itself.
func TestPlan(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	opt := pgsync.Options{URL: url, Table: table, Tenant: tenantA}
	plan := func(snapshot string) *pgsync.Plan {
		t.Helper()
		o := opt
		o.Snapshot = snapshot
		p, err := pgsync.PlanSync(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	p := plan(snaps.base)
	if !p.CreateTable || len(p.Migrations) != pgsync.LatestMigration || p.Rows.Insert != 7 || p.Index.Action != pgsync.IndexCreate || p.Last != nil {
		t.Errorf("before the table: got create %v, migrations %v, rows %+v, index %+v, last %v; want create, every migration, 7 to insert, create, never synced",
			p.CreateTable, p.Migrations, p.Rows, p.Index, p.Last)
	}
	if got := count(t, url, "SELECT count(*) FROM pg_class WHERE relname = $1", table); got != 0 {
		t.Fatalf("the plan created the table")
	}
	o := opt
	o.Snapshot, o.Migrate = snaps.base, true
	first, err := pgsync.Sync(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}

	p = plan(snaps.edited)
	want := pgsync.RowCounts{Insert: 3, Delete: 3, DeleteOldVersion: 3, Keep: 4}
	if p.Rows != want || p.Documents.Changed != 1 || p.CreateTable || len(p.Migrations) != 0 || p.Index.Action != pgsync.IndexKeep {
		t.Errorf("edited: got rows %+v, documents %+v, create %v, migrations %v, index %+v; want %+v, 1 changed, nothing else",
			p.Rows, p.Documents, p.CreateTable, p.Migrations, p.Index, want)
	}
	if p.Last == nil || p.Last.Snapshot != first.Snapshot.Name || p.Last.Rows != 7 || p.Last.Inserted != 7 {
		t.Errorf("last sync: got %+v, want snapshot %s with 7 rows inserted", p.Last, first.Snapshot.Name)
	}
	if got := count(t, url, "SELECT count(*) FROM "+table); got != 7 {
		t.Errorf("after the plan: got %d rows, want 7 (a plan changes nothing)", got)
	}
	o.Snapshot = snaps.edited
	rep, err := pgsync.Sync(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != p.Rows || rep.Documents != p.Documents {
		t.Errorf("sync after plan: got rows %+v, documents %+v; the plan said %+v, %+v", rep.Rows, rep.Documents, p.Rows, p.Documents)
	}
}

// TestIndex checks the ANN index a sync leaves: HNSW by default, ivfflat
// with lists = floor(sqrt(rows)) when asked, and back.
func TestIndex(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	tests := []struct {
		name       string
		tenant     string
		index      pgsync.IndexKind
		wantAction string
		wantDef    string // in pg_indexes.indexdef
	}{
		{"default hnsw", tenantA, "", pgsync.IndexCreate, "USING hnsw (embedding vector_cosine_ops)"},
		{"hnsw kept", tenantA, pgsync.IndexHNSW, pgsync.IndexKeep, "USING hnsw"},
		{"ivfflat replaces hnsw", tenantA, pgsync.IndexIVFFlat, pgsync.IndexRebuild, "WITH (lists='2')"}, // floor(sqrt(7))
		{"ivfflat kept within 2x", tenantB, pgsync.IndexIVFFlat, pgsync.IndexKeep, "WITH (lists='2')"},   // 14 rows: 3
		{"back to hnsw", tenantB, pgsync.IndexHNSW, pgsync.IndexRebuild, "USING hnsw"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table,
				Tenant: tt.tenant, Index: tt.index, Migrate: i == 0})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Index.Action != tt.wantAction {
				t.Errorf("got index action %s (%+v), want %s", rep.Index.Action, rep.Index, tt.wantAction)
			}
			if got := count(t, url, `SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '%' || $2 || '%'`, table, tt.wantDef); got != 1 {
				t.Errorf("got %d indexes with %q, want 1", got, tt.wantDef)
			}
			if got := count(t, url, `SELECT count(*) FROM pg_indexes WHERE tablename = $1 AND indexdef ~ 'USING (hnsw|ivfflat)'`, table); got != 1 {
				t.Errorf("got %d ANN indexes, want 1", got)
			}
		})
	}
}
