package pgsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/artifacts/diff"
	"github.com/ocean-safety/ingest/deliver/pgsync"
	"github.com/ocean-safety/ingest/internal/recipes"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestDiffIDsFindRows: the chunk ids ingest diff lists are the table's
// snapshot_chunk_id, so a consumer applies a diff to the table: the removed
// ids are rows before the sync and gone after it, the added ids are rows
// after it.
func TestDiffIDsFindRows(t *testing.T) {
	url := postgresURL(t)
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	sync := func(snap string) {
		t.Helper()
		if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snap, URL: url, Table: table, Tenant: tenantA, Migrate: true}); err != nil {
			t.Fatal(err)
		}
	}
	sync(snaps.base)
	rep, err := diff.Compare(snaps.base, snaps.edited)
	if err != nil {
		t.Fatal(err)
	}
	var added, removed []string
	for _, d := range rep.Documents {
		added, removed = append(added, d.ChunkIDsAdded...), append(removed, d.ChunkIDsRemoved...)
	}
	if len(added) == 0 || len(removed) == 0 {
		t.Fatalf("the edit's diff lists %d added and %d removed ids, want some of each", len(added), len(removed))
	}
	rows := func(ids []string) int {
		return count(t, url, "SELECT count(*) FROM "+table+" WHERE tenant_id = $1 AND snapshot_chunk_id = ANY($2::uuid[])", tenantA, ids)
	}
	if got := rows(removed); got != len(removed) {
		t.Errorf("before the sync: %d rows of the %d removed ids, want one each", got, len(removed))
	}
	sync(snaps.edited)
	if got := rows(removed); got != 0 {
		t.Errorf("after the sync: %d rows of the removed ids, want none", got)
	}
	if got := rows(added); got != len(added) {
		t.Errorf("after the sync: %d rows of the %d added ids, want one each", got, len(added))
	}
	if got := count(t, url, "SELECT count(*) FROM "+table+" WHERE snapshot_chunk_id IS NULL"); got != 0 {
		t.Errorf("%d rows without a snapshot_chunk_id, want none", got)
	}
}

// TestFilteredQueryUsesIndex: the filtered nearest-neighbour recipe of
// docs/consumers.md runs on the HNSW index with its filter (a language and
// kind that 3% of the rows have, and the tenant's policy), and with
// hnsw.iterative_scan it returns its LIMIT of rows, where without it the
// index's ef_search candidates hold fewer. On a table this small the
// planner rightly prefers sorting the filtered rows exactly (a sequential
// scan, or the scope index), so the test makes sorting dear (enable_sort
// off) to get the plan a large table gets.
func TestFilteredQueryUsesIndex(t *testing.T) {
	url := postgresURL(t)
	rs, err := recipes.Read("../../docs/consumers.md", "pgvector-filtered")
	if err != nil {
		t.Fatal(err)
	}
	snaps := buildSnapshots(t)
	table := tableFor(t, url)
	if _, err := pgsync.Sync(context.Background(), pgsync.Options{Snapshot: snaps.base, URL: url, Table: table, Tenant: tenantA, Migrate: true}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	const copies = 200
	exec(t, url, `INSERT INTO `+table+` (chunk_id, tenant_id, doc_id, version_id, chunk_kind, chunk_text, embedding, chunk_order, kind, lang,
		source_label, beach_id, section_path, context_header, content_hash, safety, doc_path, doc_title, source_url, snapshot_chunk_id)
	SELECT gen_random_uuid(), tenant_id, doc_id, gen_random_uuid(), chunk_kind, chunk_text,
		(SELECT array_agg(random()::real)::vector FROM generate_series(1, 1024) WHERE g > 0), chunk_order, 'prose', 'en',
		source_label, beach_id, section_path, context_header, content_hash, safety, doc_path, doc_title, source_url, gen_random_uuid()
	FROM `+table+`, generate_series(1, `+fmt.Sprint(copies)+`) g`,
		`UPDATE `+table+` SET lang = 'pt', kind = 'safety' WHERE random() < 0.03`, "ANALYZE "+table)
	t.Logf("%d rows (%d pt safety) in %s", count(t, url, "SELECT count(*) FROM "+table),
		count(t, url, "SELECT count(*) FROM "+table+" WHERE lang = 'pt' AND kind = 'safety'"), time.Since(start).Round(time.Millisecond))
	q, _ := lexical.NewBuiltin(1024).Embed(context.Background(), []string{"waves for beginners"})
	qjson, _ := json.Marshal(q[0])
	vars := strings.NewReplacer(":'q'", "'"+string(qjson)+"'", ":'tenant'", "'"+tenantA+"'", pgsync.DefaultTable, table)
	// run runs the recipe, with extra settings before its query, and
	// returns the query's plan and row count.
	run := func(extra ...string) (plan string, n int) {
		withConn(t, url, func(conn *pgx.Conn) {
			ctx := context.Background()
			for _, stmt := range rs[0].Statements() {
				stmt = vars.Replace(stmt)
				if !strings.HasPrefix(stmt, "SELECT chunk_id") {
					if _, err := conn.Exec(ctx, stmt); err != nil {
						t.Fatalf("%v\n%s", err, stmt)
					}
					continue
				}
				for _, e := range extra {
					if _, err := conn.Exec(ctx, e); err != nil {
						t.Fatal(err)
					}
				}
				rows, err := conn.Query(ctx, "EXPLAIN "+strings.TrimSuffix(stmt, ";"))
				if err != nil {
					t.Fatal(err)
				}
				var lines []string
				for rows.Next() {
					var line string
					rows.Scan(&line)
					lines = append(lines, line)
				}
				plan = strings.Join(lines, "\n")
				rows, err = conn.Query(ctx, stmt)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					n++
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
			}
		})
		return plan, n
	}
	plan, n := run("SET LOCAL enable_sort = off")
	if !strings.Contains(plan, "Index Scan using "+table+"_embedding_hnsw") || !strings.Contains(plan, "Filter:") {
		t.Errorf("the filtered query is not run on the HNSW index with its filter:\n%s", regexp.MustCompile(`\[[-0-9.,e]+\]`).ReplaceAllString(plan, "[…]"))
	}
	if n != 5 {
		t.Errorf("with hnsw.iterative_scan: %d rows, want the LIMIT of 5", n)
	}
	if _, without := run("SET LOCAL enable_sort = off", "SET LOCAL hnsw.iterative_scan = off", "SET LOCAL hnsw.ef_search = 40"); without >= 5 {
		t.Logf("without hnsw.iterative_scan: %d rows: the filter left enough of the ef_search candidates this time", without)
	} else {
		t.Logf("without hnsw.iterative_scan: %d rows of 5, with it 5", without)
	}
}
