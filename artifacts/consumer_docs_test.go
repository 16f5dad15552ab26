//go:build duckdb

package artifacts_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/internal/recipes"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
	"github.com/ocean-safety/ingest/text/lexical"
)

// docsPath is the consumer contract whose DuckDB recipes this test runs.
const docsPath = "../docs/consumers.md"

// TestConsumerDocsDuckDB runs every DuckDB recipe of docs/consumers.md,
// as written, on a snapshot made by the pipeline (Portuguese quantities
// included, where bytes and characters differ).
func TestConsumerDocsDuckDB(t *testing.T) {
	rs, err := recipes.Read(docsPath, "duckdb")
	if err != nil {
		t.Fatal(err)
	}
	corpus := stagestest.WriteCorpus(t, stagestest.Base, map[string]string{"pt-BR/agua.md": "# Temperatura da água\n" +
		"Source: https://example.org/agua\n\nÁgua a 24,5 °C em janeiro; no inverno, ondas de 2 m e vento de 20 nós.\n"})
	snap := stagestest.Build(t, corpus, stages.Options{})
	path := filepath.Join(snap, artifacts.ChunksFile)

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // variables and the macro live in one session
	view, err := os.ReadFile(filepath.Join("..", "consumers", "chunks_view.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(view)); err != nil {
		t.Fatal(err)
	}
	// What the documentation says to paste: the output of ingest embed.
	q, err := lexical.NewBuiltin(1024).Embed(context.Background(), []string{"waves for beginners"})
	if err != nil {
		t.Fatal(err)
	}
	qjson, _ := json.Marshal(q[0])
	if _, err := db.Exec("SET VARIABLE q = '" + string(qjson) + "'::FLOAT[1024]"); err != nil {
		t.Fatal(err)
	}
	var quantities int
	if err := db.QueryRow("SELECT count(*) FROM (SELECT unnest(quantities) FROM read_parquet(?))", path).Scan(&quantities); err != nil || quantities < 4 {
		t.Fatalf("got %d quantities (%v), want at least 4 for the offset recipe to mean something", quantities, err)
	}
	for _, r := range rs {
		t.Run(filepath.Base(docsPath)+":"+itoa(r.Line), func(t *testing.T) {
			query := strings.ReplaceAll(r.SQL, "out/knowledge/chunks.parquet", path)
			rows, err := db.Query(query)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.SQL)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			n := 0
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				if r.Want != nil && (len(vals) != 1 || toInt(vals[0]) != *r.Want) {
					t.Errorf("got %v, want %d", vals, *r.Want)
				}
				n++
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Errorf("got no row, want some")
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func toInt(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int32:
		return int(x)
	case uint64:
		return int(x)
	}
	return -1
}
