package main

import (
	"context"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

const (
	syncTenant   = "0c000000-0000-4000-8000-00000000000c"
	syncTable    = "cmd_sync_chunks"
	syncPassword = "planted-Pa55word" // must appear in no output
)

// TestSyncCommandUsage needs no database: bad flags are usage errors, and
// an unreachable server names the target without its password.
func TestSyncCommandUsage(t *testing.T) {
	t.Parallel()
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	to := "postgres://kb:" + syncPassword + "@127.0.0.1:1/kb?connect_timeout=1"
	tests := []struct {
		name       string
		args       []string
		want       int
		wantStderr string
	}{
		{"no --to", []string{"sync", "--snapshot", snap}, exitUsage, "sync needs --snapshot DIR|URL and --to"},
		{"bad tenant", []string{"sync", "--snapshot", snap, "--to", to, "--tenant", "acme"}, exitUsage, `tenant "acme" is not a UUID`},
		{"bad index", []string{"sync", "--snapshot", snap, "--to", to, "--tenant", syncTenant, "--index", "btree"}, exitUsage, "want hnsw or ivfflat"},
		{"unreachable", []string{"sync", "--snapshot", snap, "--to", to, "--tenant", syncTenant}, exitFailed, "connect to postgres://kb:***@127.0.0.1:1/kb"},
		{"unreachable plan", []string{"sync", "--plan", "--snapshot", snap, "--to", to, "--tenant", syncTenant}, exitFailed, "connect to postgres://kb:***@127.0.0.1:1/kb"},
		// A snapshot of an older build, whose doc_ids collide across
		// sources: refused before any connection, saying what to run.
		{"schema 2", []string{"sync", "--snapshot", "../../testdata/snapshot-v2", "--to", to, "--tenant", syncTenant}, exitFailed,
			"has schema version 2, whose doc_id collides across sources: run ingest index again with this build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", tt.args...)
			if code != tt.want || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("got exit %d, stderr %q; want exit %d, stderr with %q", code, stderr, tt.want, tt.wantStderr)
			}
			if strings.Contains(stdout+stderr, syncPassword) {
				t.Errorf("the password is in the output:\n%s%s", stdout, stderr)
			}
		})
	}
}

// TestSyncCommandPostgres runs the command as a person would: plan, sync,
// re-sync, plan of an edit, against the test server (.ci/pglite.sh), with
// a password planted in the URL that no output may show.
func TestSyncCommandPostgres(t *testing.T) {
	t.Parallel()
	base := os.Getenv("INGEST_TEST_POSTGRES")
	if base == "" {
		t.Skip("INGEST_TEST_POSTGRES is not set: no PostgreSQL with pgvector to test against (.ci/pglite.sh test runs this)")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), syncPassword)
	to := u.String()
	dropSyncTable(t, base)
	t.Cleanup(func() { dropSyncTable(t, base) })

	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	edited := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, map[string]string{"waves.md": strings.Replace(stagestest.Base["waves.md"],
		"that break with more force", "that break with far more force", 1)}), stages.Options{})
	common := []string{"--to", to, "--table", syncTable, "--tenant", syncTenant}
	tests := []struct {
		name string
		args []string
		want []string // lines of stdout, in order
	}{
		{"plan before the table", []string{"sync", "--plan", "--snapshot", snap}, []string{
			"plan: sync ", "(3 documents, 7 chunks, builtin-hash-v1 1024 dims)",
			"into postgres://postgres:***@127.0.0.1:", "table " + syncTable + ", tenant " + syncTenant + ", source ocean",
			"last sync: never",
			"table: would create the table (migrations 1, 2, 3): run with --migrate",
			"documents: 3 added, 0 changed, 0 regenerated, 0 removed, 0 unchanged",
			"rows: would insert 7, would delete 0 (0 of removed documents, 0 of old versions, 0 regenerated), 0 kept",
			"index: create hnsw", "nothing changed (--plan); load would use copy"}},
		{"first sync", []string{"sync", "--migrate", "--snapshot", snap}, []string{
			"table: created (migrations [1 2 3])", "rows: inserted 7, deleted 0", "index: create hnsw", "committed in"}},
		{"unchanged re-sync", []string{"sync", "--snapshot", snap, "--load", "insert"}, []string{
			"last sync: this snapshot", "documents: 0 added, 0 changed, 0 regenerated, 0 removed, 3 unchanged",
			"rows: inserted 0, deleted 0 (0 of removed documents, 0 of old versions, 0 regenerated), 7 kept", "index: keep hnsw", "(load: insert)"}},
		{"plan of an edit", []string{"sync", "--plan", "--snapshot", edited, "--index", "ivfflat"}, []string{
			"documents: 0 added, 1 changed, 0 regenerated, 0 removed, 2 unchanged",
			"rows: would insert 3, would delete 3 (0 of removed documents, 3 of old versions, 0 regenerated), 4 kept",
			"index: rebuild ivfflat lists=2 (replacing hnsw)"}},
		{"edit", []string{"sync", "--snapshot", edited}, []string{"rows: inserted 3, deleted 3 (0 of removed documents, 3 of old versions, 0 regenerated), 4 kept"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", append(tt.args, common...)...)
			if code != exitOK {
				t.Fatalf("got exit %d, want 0; stderr:\n%s", code, stderr)
			}
			rest := stdout
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("got stdout:\n%s\nwant %q (after the lines before it)", stdout, w)
				}
				rest = rest[i+len(w):]
			}
			if strings.Contains(stdout+stderr, syncPassword) {
				t.Errorf("the password is in the output:\n%s%s", stdout, stderr)
			}
		})
	}
}

func dropSyncTable(t *testing.T, url string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, sql := range []string{"DROP TABLE IF EXISTS " + syncTable,
		"DO $$ BEGIN IF to_regclass('kb_sync_state') IS NOT NULL THEN DELETE FROM kb_sync_state WHERE table_name = '" + syncTable + "'; END IF; END $$",
		"DO $$ BEGIN IF to_regclass('kb_schema_migrations') IS NOT NULL THEN DELETE FROM kb_schema_migrations WHERE table_name = '" + syncTable + "'; END IF; END $$"} {
		if _, err := conn.Exec(context.Background(), sql); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSyncRefusesOtherDestinations: a --to of another destination (an
// ingest API's) or of none is refused by the destinations' registry,
// naming what sync takes, with the URL's credentials masked.
func TestSyncRefusesOtherDestinations(t *testing.T) {
	t.Parallel()
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	tests := []struct{ name, to, wantStderr string }{
		{"an ingest API", "https://bot:" + syncPassword + "@kb.example.org/v1/ingest",
			"https://***@kb.example.org/v1/ingest is an ingest API's address, and this delivery is not to one: want postgres://…, postgresql://… or host=… dbname=…"},
		{"no destination", "ftp://bot:" + syncPassword + "@kb.example.org/x", "ftp://***@kb.example.org/x: no destination takes ftp://: want postgres://…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(context.Background(), "", "sync", "--snapshot", snap, "--to", tt.to, "--tenant", syncTenant)
			if code != exitFailed || stdout != "" || !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want exit %d, stderr with %q", code, stdout, stderr, exitFailed, tt.wantStderr)
			}
			if strings.Contains(stdout+stderr, syncPassword) {
				t.Errorf("the password is in the output:\n%s%s", stdout, stderr)
			}
		})
	}
}
