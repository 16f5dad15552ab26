package pgsync

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// releasedMigrations pin the SQL of every released migration, for the
// default table: a table migrated by one release must find the same steps
// in the next. Never change a hash here: add a migration.
var releasedMigrations = map[int]string{
	1: "da7d423a6155b05f03d4c05be442a7f9858f17cada2521326782d6372b197e79",
	2: "613c7eab2dc0d3983917fea283e44f260a8de5393f854009ac6d07bf862da924",
	3: "3fc5d75fe5f9549e4654b46f30f122a6992d9c234c14f3d7c0454e99ae02ef41",
}

// migrationSQL is a migration's statements for the default table.
func migrationSQL(m migration) string {
	return strings.Join(m.sql(Table{Name: DefaultTable, Dims: 1024, AppRole: DefaultAppRole}), ";\n")
}

// TestMigrationsFrozen: a released migration's SQL is what it was when
// released (the hashes above), and every migration is pinned, so an edit
// to one fails here instead of leaving the tables it made behind.
func TestMigrationsFrozen(t *testing.T) {
	for i, m := range migrations {
		if m.version != i+1 {
			t.Errorf("migration %d is number %d in the list: versions go 1, 2, 3…", m.version, i+1)
		}
		sum := sha256.Sum256([]byte(migrationSQL(m)))
		want, ok := releasedMigrations[m.version]
		switch got := hex.EncodeToString(sum[:]); {
		case !ok:
			t.Errorf("migration %d (%s) is not pinned: add %d: %q to releasedMigrations once it is released", m.version, m.name, m.version, got)
		case got != want:
			t.Errorf("migration %d (%s) changed: its SQL hashes to %s, released as %s; undo the edit and add a migration instead:\n%s", m.version, m.name, got, want, migrationSQL(m))
		}
	}
	if len(releasedMigrations) != len(migrations) {
		t.Errorf("got %d migrations, %d pinned: a released migration was removed", len(migrations), len(releasedMigrations))
	}
}

// checkList is a CHECK constraint on a column of closed values, in a
// CREATE TABLE or an ALTER TABLE … ADD CONSTRAINT.
var checkList = regexp.MustCompile(`CHECK \((chunk_kind|kind|lang) IN \(([^)]*)\)\)`)

// TestMigrationsAllowEveryValue: after the last migration, each column of
// closed values allows exactly what this build writes: a kind, language
// or element added to schema needs a migration that widens the CHECK.
func TestMigrationsAllowEveryValue(t *testing.T) {
	allowed := map[string][]string{}
	for _, m := range migrations {
		for _, c := range checkList.FindAllStringSubmatch(migrationSQL(m), -1) {
			var vs []string
			for _, v := range strings.Split(c[2], ",") {
				vs = append(vs, strings.Trim(strings.TrimSpace(v), "'"))
			}
			allowed[c[1]] = vs // a later migration's constraint replaces an earlier one's
		}
	}
	written := map[string][]string{"chunk_kind": names(schema.Elements), "kind": names(schema.Kinds), "lang": names(schema.Langs)}
	for col, want := range written {
		got := slices.Clone(allowed[col])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the migrations allow %v, this build writes %v: add a migration that replaces the CHECK", col, got, want)
		}
	}
}

func names[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// tsConfig is a language's branch of search_tsv's CASE.
var tsConfig = regexp.MustCompile(`WHEN '(\w+)' THEN '(\w+)'::regconfig`)

// TestMigrationsStemEveryLanguage: after the last migration, search_tsv
// stems every language this build writes with its own text search
// configuration, not simple's: a language added to schema needs a
// migration that adds its branch.
func TestMigrationsStemEveryLanguage(t *testing.T) {
	configs := map[string]string{}
	for _, m := range migrations {
		sql := migrationSQL(m)
		if !strings.Contains(sql, "search_tsv tsvector GENERATED") {
			continue
		}
		configs = map[string]string{} // a later definition replaces an earlier one
		for _, c := range tsConfig.FindAllStringSubmatch(sql, -1) {
			configs[c[1]] = c[2]
		}
	}
	for _, l := range schema.Langs {
		if c := configs[string(l)]; c == "" || c == "simple" {
			t.Errorf("language %s: got text search configuration %q, want its own: add a migration that gives search_tsv its branch", l, c)
		}
	}
}
