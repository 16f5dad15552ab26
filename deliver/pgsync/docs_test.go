package pgsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/internal/recipes"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestConsumerDocsPgvector runs the pgvector recipes of docs/consumers.md
// as psql would: :'q' and :'tenant' become quoted literals, the default
// table name becomes the test's.
func TestConsumerDocsPgvector(t *testing.T) {
	url := postgresURL(t)
	rs, err := recipes.Read("../../docs/consumers.md", "pgvector")
	if err != nil {
		t.Fatal(err)
	}
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	for i, tenant := range []string{tenantA, tenantB} {
		if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table, Tenant: tenant, Migrate: i == 0}); err != nil {
			t.Fatal(err)
		}
	}
	q, err := lexical.NewBuiltin(1024).Embed(context.Background(), []string{"waves for beginners"})
	if err != nil {
		t.Fatal(err)
	}
	qjson, _ := json.Marshal(q[0])
	// :'ids', chunk ids as a diff lists them: the base snapshot's first two.
	var ids []string
	withConn(t, url, func(conn *pgx.Conn) {
		rows, err := conn.Query(context.Background(), "SELECT snapshot_chunk_id::text FROM "+table+" WHERE tenant_id = $1 ORDER BY doc_path, chunk_order LIMIT 2", tenantA)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			rows.Scan(&id)
			ids = append(ids, id)
		}
	})
	psqlVars := strings.NewReplacer(":'q'", "'"+string(qjson)+"'", ":'tenant'", "'"+tenantA+"'", ":'beach'", "'"+beachOf(t, snaps.base)+"'",
		":'question'", "'waves for beginners'",
		":'ids'", "'{"+strings.Join(ids, ",")+"}'", pgsync.DefaultTable, table)
	for _, r := range rs {
		t.Run(fmt.Sprintf("consumers.md:%d", r.Line), func(t *testing.T) {
			withConn(t, url, func(conn *pgx.Conn) {
				results := 0
				for _, stmt := range r.Statements() {
					rows, err := conn.Query(context.Background(), psqlVars.Replace(stmt))
					if err != nil {
						t.Fatalf("%v\n%s", err, stmt)
					}
					n := 0
					for rows.Next() {
						n++
					}
					if err := rows.Err(); err != nil {
						t.Fatalf("%v\n%s", err, stmt)
					}
					if strings.Contains(stmt, "FROM "+pgsync.DefaultTable) {
						results = n
					}
				}
				if results == 0 {
					t.Errorf("got no row from the recipe's query, want some")
				}
			})
		})
	}
}

// beachOf is a beach a snapshot's chunks name.
func beachOf(t *testing.T, snap string) string {
	t.Helper()
	cf, err := artifacts.OpenChunks(filepath.Join(snap, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	beach := ""
	cf.Each(context.Background(), func(c schema.Chunk) error {
		if beach == "" && c.BeachID != "" {
			beach = c.BeachID
		}
		return nil
	})
	if beach == "" {
		t.Fatal("the snapshot names no beach")
	}
	return beach
}
