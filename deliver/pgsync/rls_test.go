package pgsync_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ocean-safety/ingest/deliver/pgsync"
)

// TestRowLevelSecurity works as the application role (not the owner, not
// a superuser) with auth.tenant_id set, as a retriever does: it sees only
// its tenant's rows, cannot write another tenant's, and cannot update.
func TestRowLevelSecurity(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	for i, tenant := range []string{tenantA, tenantB} {
		snap := snaps.base
		if tenant == tenantB {
			snap = snaps.removed
		}
		if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snap, URL: url, Table: table, Tenant: tenant, Migrate: i == 0}); err != nil {
			t.Fatal(err)
		}
	}
	// A row of tenant A's, re-labelled for the insert cases.
	copyRow := func(tenant, id string) string {
		return `INSERT INTO ` + table + ` (chunk_id, tenant_id, doc_id, version_id, chunk_kind, chunk_text, embedding, chunk_order,
			kind, lang, source_label, beach_id, section_path, context_header, content_hash, safety, doc_path, doc_title, source_url)
			SELECT '` + id + `', '` + tenant + `', doc_id, gen_random_uuid(), chunk_kind, chunk_text, embedding, chunk_order,
			kind, lang, source_label, beach_id, section_path, context_header, content_hash, safety, doc_path, doc_title, source_url
			FROM ` + table + ` LIMIT 1`
	}
	tests := []struct {
		name     string
		tenant   string // auth.tenant_id; "" leaves it unset
		sql      string
		want     int    // rows counted or affected
		wantCode string // SQLSTATEs of the expected error, space-separated
	}{
		{"tenant A sees its rows", tenantA, "SELECT count(*) FROM " + table, 7, ""},
		{"tenant B sees its rows", tenantB, "SELECT count(*) FROM " + table, 4, ""},
		{"no tenant of another's rows", tenantA, "SELECT count(*) FROM " + table + " WHERE tenant_id <> '" + tenantA + "'", 0, ""},
		{"no tenant set is an error", "", "SELECT count(*) FROM " + table, 0, "22P02 42704"}, // '' is no uuid; or the setting was never defined
		{"insert for itself", tenantA, copyRow(tenantA, "0a000000-0000-4000-8000-0000000000ff"), 1, ""},
		{"insert for another tenant", tenantA, copyRow(tenantB, "0b000000-0000-4000-8000-0000000000ff"), 0, "42501"},
		{"delete another tenant's rows", tenantA, "DELETE FROM " + table + " WHERE tenant_id = '" + tenantB + "'", 0, ""},
		{"no update", tenantA, "UPDATE " + table + " SET chunk_text = 'x'", 0, "42501"},
		{"no sync state", tenantA, "SELECT count(*) FROM kb_sync_state", 0, "42501"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withConn(t, url, func(conn *pgx.Conn) {
				ctx := context.Background()
				tx, err := conn.Begin(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback(ctx) // each case leaves the table as it found it
				if _, err := tx.Exec(ctx, "SET LOCAL ROLE "+pgsync.DefaultAppRole); err != nil {
					t.Fatal(err)
				}
				if tt.tenant != "" {
					if _, err := tx.Exec(ctx, "SELECT set_config('auth.tenant_id', $1, true)", tt.tenant); err != nil {
						t.Fatal(err)
					}
				}
				var got int
				if strings.HasPrefix(tt.sql, "SELECT") {
					err = tx.QueryRow(ctx, tt.sql).Scan(&got)
				} else {
					var tag pgconn.CommandTag
					tag, err = tx.Exec(ctx, tt.sql)
					got = int(tag.RowsAffected())
				}
				var pgErr *pgconn.PgError
				switch {
				case tt.wantCode != "" && (!errors.As(err, &pgErr) || !slices.Contains(strings.Fields(tt.wantCode), pgErr.Code)):
					t.Fatalf("got error %v, want SQLSTATE %s", err, tt.wantCode)
				case tt.wantCode == "" && err != nil:
					t.Fatalf("got error %v, want none", err)
				case got != tt.want:
					t.Errorf("got %d rows, want %d", got, tt.want)
				}
			})
		})
	}
	// Nothing above committed: tenant B still has its rows.
	if got := count(t, url, "SELECT count(*) FROM "+table+" WHERE tenant_id = $1", tenantB); got != 4 {
		t.Errorf("tenant B after the cases: got %d rows, want 4", got)
	}
}
