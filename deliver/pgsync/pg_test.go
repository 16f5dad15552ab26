package pgsync_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// These tests need a PostgreSQL with pgvector: .ci/pglite.sh starts one
// (PGlite over the wire protocol) and sets INGEST_TEST_POSTGRES. Without
// it they skip, so go test ./... passes on a plain clone.
const postgresEnv = "INGEST_TEST_POSTGRES"

// Tenants of the tests.
const (
	tenantA = "0a000000-0000-4000-8000-00000000000a"
	tenantB = "0b000000-0000-4000-8000-00000000000b"
)

// postgresURL returns the test server's URL, or skips the test.
func postgresURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv(postgresEnv)
	if u == "" {
		t.Skipf("%s is not set: no PostgreSQL with pgvector to test against (.ci/pglite.sh test runs these)", postgresEnv)
	}
	return u
}

// withConn runs fn on a connection of its own, closed before it returns:
// the server is one session that takes connections in turn, so a test
// must not hold one while the code under test opens another.
func withConn(t *testing.T, url string, fn func(*pgx.Conn)) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	fn(conn)
}

// exec runs statements on a connection of their own.
func exec(t *testing.T, url string, sqls ...string) {
	t.Helper()
	withConn(t, url, func(conn *pgx.Conn) {
		for _, sql := range sqls {
			if _, err := conn.Exec(context.Background(), sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	})
}

var nonName = regexp.MustCompile(`[^a-z0-9_]+`)

// tableFor names a table for the test alone and drops it afterwards: the
// tests share one server.
func tableFor(t *testing.T, url string) string {
	t.Helper()
	name := nonName.ReplaceAllString(strings.ToLower(t.Name()), "_")
	name = "t_" + name[max(0, len(name)-30):]
	drop := func() {
		conn, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(context.Background())
		for _, sql := range []string{
			"DROP TABLE IF EXISTS " + name,
			"DELETE FROM kb_sync_state WHERE table_name = '" + name + "'",
			"DELETE FROM kb_schema_migrations WHERE table_name = '" + name + "'",
		} {
			if _, err := conn.Exec(context.Background(), sql); err != nil && !strings.Contains(err.Error(), "does not exist") {
				t.Error(err)
			}
		}
	}
	drop()
	t.Cleanup(drop)
	return name
}

// snapshots are the corpus states the tests sync, built once.
type snapshots struct {
	base, edited, removed string
}

var built *snapshots

// Edits of stagestest.Base.
var (
	paragraphEdit = map[string]string{"waves.md": strings.Replace(stagestest.Base["waves.md"],
		"that break with more force", "that break with far more force", 1)}
	documentRemoved = map[string]string{"safety/rules.md": stagestest.Gone}
)

func buildSnapshots(t *testing.T) *snapshots {
	t.Helper()
	if built == nil {
		built = &snapshots{
			base:    stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{}),
			edited:  stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, paragraphEdit), stages.Options{}),
			removed: stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, documentRemoved), stages.Options{}),
		}
		// Built under the first test's temporary folder: copy them out of it.
		for _, p := range []*string{&built.base, &built.edited, &built.removed} {
			*p = copyOut(t, *p)
		}
	}
	return built
}

// copyOut copies a snapshot to a folder that outlives the test.
func copyOut(t *testing.T, src string) string {
	t.Helper()
	dst, err := os.MkdirTemp("", "pgsync-snap-")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(src + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+"/"+e.Name(), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built != nil {
		for _, d := range []string{built.base, built.edited, built.removed} {
			os.RemoveAll(d)
		}
	}
	os.Exit(code)
}

// count runs a count query as the session's superuser.
func count(t *testing.T, url, sql string, args ...any) int {
	t.Helper()
	var n int
	withConn(t, url, func(conn *pgx.Conn) {
		if err := conn.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	})
	return n
}

func rowsSummary(inserted, deleted int64) string { return fmt.Sprintf("+%d -%d", inserted, deleted) }

func stagesOptions() stages.Options { return stages.Options{} }
