package pgsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/internal/recipes"
	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/pgsync"
)

// TestConsumerDocsPgvector runs the pgvector recipes of docs/consumers.md
// as psql would: :'q' and :'tenant' become quoted literals, the default
// table name becomes the test's.
func TestConsumerDocsPgvector(t *testing.T) {
	url := postgresURL(t)
	rs, err := recipes.Read("../docs/consumers.md", "pgvector")
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
	psqlVars := strings.NewReplacer(":'q'", "'"+string(qjson)+"'", ":'tenant'", "'"+tenantA+"'", pgsync.DefaultTable, table)
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
