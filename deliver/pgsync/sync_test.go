package pgsync_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/deliver/pgsync"
)

// rowSet reads the (chunk_id, doc_path, created_at) of a tenant's rows,
// bypassing row-level security as the test's superuser session.
func rowSet(t *testing.T, url, table, tenant string) map[string]string {
	t.Helper()
	out := map[string]string{}
	withConn(t, url, func(conn *pgx.Conn) {
		var exists bool
		if err := conn.QueryRow(context.Background(), "SELECT to_regclass($1) IS NOT NULL", table).Scan(&exists); err != nil || !exists {
			return
		}
		rows, err := conn.Query(context.Background(), "SELECT chunk_id::text, doc_path || ' v' || version_id::text FROM "+table+" WHERE tenant_id = $1", tenant)
		if err != nil {
			t.Fatal(err)
		}
		var id, what string
		if _, err := pgx.ForEachRow(rows, []any{&id, &what}, func() error { out[id] = what; return nil }); err != nil {
			t.Fatal(err)
		}
	})
	return out
}

// TestSyncSequence syncs a corpus through its life, with each load path:
// first load, unchanged re-sync, a one-paragraph edit, a removed document,
// and back. Each step's rows inserted and deleted are the figures the
// issue asks for.
func TestSyncSequence(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	type step struct {
		name     string
		snapshot string
		want     pgsync.RowCounts
		docs     pgsync.DocCounts
		changed  []string // documents whose rows were replaced
	}
	steps := []step{
		{"first", snaps.base, pgsync.RowCounts{Insert: 7}, pgsync.DocCounts{Added: 3}, []string{"pt-BR/lore/joaquina.md", "safety/rules.md", "waves.md"}},
		{"unchanged", snaps.base, pgsync.RowCounts{Keep: 7}, pgsync.DocCounts{Unchanged: 3}, nil},
		{"paragraph-edited", snaps.edited, pgsync.RowCounts{Insert: 3, Delete: 3, DeleteOldVersion: 3, Keep: 4},
			pgsync.DocCounts{Changed: 1, Unchanged: 2}, []string{"waves.md"}},
		{"edited-again-unchanged", snaps.edited, pgsync.RowCounts{Keep: 7}, pgsync.DocCounts{Unchanged: 3}, nil},
		{"document-removed", snaps.removed, pgsync.RowCounts{Insert: 3, Delete: 6, DeleteGone: 3, DeleteOldVersion: 3, Keep: 1},
			pgsync.DocCounts{Changed: 1, Removed: 1, Unchanged: 1}, []string{"safety/rules.md", "waves.md"}},
		{"back-to-base", snaps.base, pgsync.RowCounts{Insert: 3, Keep: 4}, pgsync.DocCounts{Added: 1, Unchanged: 2}, []string{"safety/rules.md"}},
	}
	for _, load := range []pgsync.Load{pgsync.LoadCopy, pgsync.LoadInsert} {
		t.Run(string(load), func(t *testing.T) {
			table := tableFor(t, url)
			for i, st := range steps {
				before := rowSet(t, url, table, tenantA)
				rep, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: st.snapshot, URL: url, Table: table,
					Tenant: tenantA, Migrate: i == 0, Load: load})
				if err != nil {
					t.Fatalf("%s: %v", st.name, err)
				}
				if rep.Rows != st.want {
					t.Errorf("%s: got rows %+v, want %+v", st.name, rep.Rows, st.want)
				}
				if rep.Documents != st.docs {
					t.Errorf("%s: got documents %+v, want %+v", st.name, rep.Documents, st.docs)
				}
				if got, want := rep.Inserted, int64(st.want.Insert); got != want {
					t.Errorf("%s: got %d rows inserted, want %d", st.name, got, want)
				}
				if got, want := rep.Deleted, int64(st.want.Delete); got != want {
					t.Errorf("%s: got %d rows deleted, want %d", st.name, got, want)
				}
				after := rowSet(t, url, table, tenantA)
				if got, want := len(after), rep.Snapshot.Rows; got != want {
					t.Errorf("%s: got %d rows in the table, want the snapshot's %d", st.name, got, want)
				}
				if got := replaced(before, after); !slices.Equal(got, st.changed) {
					t.Errorf("%s: got rows replaced of %q, want %q", st.name, got, st.changed)
				}
				t.Logf("%s: %s", st.name, rowsSummary(rep.Inserted, rep.Deleted))
			}
		})
	}
}

// replaced lists the documents with a row added or gone between two
// readings, from the "path vVERSION" values of rowSet.
func replaced(before, after map[string]string) []string {
	docs := map[string]bool{}
	for id, what := range before {
		if _, ok := after[id]; !ok {
			docs[docPath(what)] = true
		}
	}
	for id, what := range after {
		if _, ok := before[id]; !ok {
			docs[docPath(what)] = true
		}
	}
	var out []string
	for d := range docs {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

func docPath(what string) string {
	for i := len(what) - 1; i >= 0; i-- {
		if what[i] == ' ' {
			return what[:i]
		}
	}
	return what
}

// TestSyncTenantsApart syncs one snapshot for two tenants: each gets its
// own rows (ids include the tenant), and a sync of one never touches the
// other's.
func TestSyncTenantsApart(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	for _, st := range []struct {
		tenant, snapshot string
		migrate          bool
	}{{tenantA, snaps.base, true}, {tenantB, snaps.base, false}, {tenantB, snaps.removed, false}} {
		if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: st.snapshot, URL: url, Table: table, Tenant: st.tenant, Migrate: st.migrate}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		tenant string
		want   int
	}{{tenantA, 7}, {tenantB, 4}}
	for _, tt := range tests {
		if got := count(t, url, "SELECT count(*) FROM "+table+" WHERE tenant_id = $1", tt.tenant); got != tt.want {
			t.Errorf("tenant %s: got %d rows, want %d", tt.tenant, got, tt.want)
		}
	}
	if got := count(t, url, "SELECT count(*) FROM kb_sync_state WHERE table_name = $1", table); got != 2 {
		t.Errorf("got %d kb_sync_state rows, want 2 (one per tenant and source label)", got)
	}
}

// TestSyncRefusesTable checks the errors for a table that is not there or
// not the right shape.
func TestSyncRefusesTable(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	_, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table, Tenant: tenantA})
	if !errors.Is(err, pgsync.ErrNoTable) {
		t.Fatalf("no table, no --migrate: got %v, want ErrNoTable", err)
	}
	exec(t, url, "CREATE TABLE "+table+" (chunk_id uuid PRIMARY KEY, tenant_id uuid NOT NULL, embedding vector(8), extra text NOT NULL)")
	_, err = pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table, Tenant: tenantA, Migrate: true})
	var mm *pgsync.MismatchError
	if !errors.As(err, &mm) {
		t.Fatalf("a table of another shape: got %v, want a MismatchError", err)
	}
	for _, want := range []string{
		"column embedding is vector(8), want vector(1024)",
		"no column doc_id uuid",
		"column extra is NOT NULL without a default",
	} {
		if !slices.ContainsFunc(mm.Problems, func(p string) bool { return len(p) >= len(want) && p[:len(want)] == want }) {
			t.Errorf("got problems %q, want one starting %q", mm.Problems, want)
		}
	}
	if got := count(t, url, "SELECT count(*) FROM "+table); got != 0 {
		t.Errorf("got %d rows in the refused table, want 0", got)
	}
}

// TestSyncAbortsWhole makes a sync fail after its deletes, in the middle of
// its inserts: nothing it did may remain, and kb_sync_state still names the
// snapshot synced before.
func TestSyncAbortsWhole(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	for _, load := range []pgsync.Load{pgsync.LoadCopy, pgsync.LoadInsert} {
		t.Run(string(load), func(t *testing.T) {
			first, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table, Tenant: tenantA, Migrate: true})
			if err != nil {
				t.Fatal(err)
			}
			before := rowSet(t, url, table, tenantA)
			// The edited paragraph is refused by a constraint of the owner's own.
			exec(t, url, "ALTER TABLE "+table+" ADD CONSTRAINT no_far CHECK (chunk_text NOT LIKE '%far more force%')")
			defer exec(t, url, "ALTER TABLE "+table+" DROP CONSTRAINT no_far")
			_, err = pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.edited, URL: url, Table: table, Tenant: tenantA, Load: load})
			if err == nil || !strings.Contains(err.Error(), "no_far") {
				t.Fatalf("got %v, want the constraint's error", err)
			}
			after := rowSet(t, url, table, tenantA)
			if got := replaced(before, after); len(got) != 0 || len(after) != len(before) {
				t.Errorf("after a failed sync: got %d rows, those of %q replaced; want the %d rows before, none replaced", len(after), got, len(before))
			}
			var synced string
			withConn(t, url, func(conn *pgx.Conn) {
				if err := conn.QueryRow(context.Background(), "SELECT snapshot_name FROM kb_sync_state WHERE table_name = $1", table).Scan(&synced); err != nil {
					t.Fatal(err)
				}
			})
			if synced != first.Snapshot.Name {
				t.Errorf("kb_sync_state: got %s, want %s (the last sync that committed)", synced, first.Snapshot.Name)
			}
		})
	}
}
