package pgsync

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// querier is what pgsync asks of a connection or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

var (
	_ querier = (*pgx.Conn)(nil)
	_ querier = (pgx.Tx)(nil)
)

// migration is one versioned step of a chunks table's schema. A step's
// statements are idempotent where PostgreSQL allows, so a table made by
// hand to the same shape can be adopted by --migrate.
type migration struct {
	version int
	name    string
	sql     func(Table) []string
}

// migrations are applied in order, each once per table; the applied ones
// are recorded in kb_schema_migrations. Never edit a released step: add one.
var migrations = []migration{
	{1, "chunks table, row-level security, grants, sync state", migration1},
	{2, "snapshot_chunk_id: the snapshot's chunk_id, indexed", migration2},
	{3, "search_text and its full-text search_tsv, GIN-indexed", migration3},
}

// LatestMigration is the version a table must be at for this build to sync it.
var LatestMigration = migrations[len(migrations)-1].version

func migration1(t Table) []string {
	n := ident(t.Name)
	policy := ident(t.Name + "_tenant")
	tenant := "tenant_id = current_setting('auth.tenant_id')::uuid"
	return []string{
		`CREATE EXTENSION IF NOT EXISTS vector`,
		t.createSQL(),
		fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s (tenant_id, source_label, doc_id)`, ident(t.Name+"_scope_idx"), n),
		// FORCE: the table's owner is held to the policy too; only superusers
		// and BYPASSRLS roles see every tenant.
		fmt.Sprintf(`ALTER TABLE %s ENABLE ROW LEVEL SECURITY`, n),
		fmt.Sprintf(`ALTER TABLE %s FORCE ROW LEVEL SECURITY`, n),
		fmt.Sprintf(`DROP POLICY IF EXISTS %s ON %s`, policy, n),
		// Without auth.tenant_id set the cast fails: a query that forgot the
		// tenant is an error, never every tenant's rows.
		fmt.Sprintf(`CREATE POLICY %s ON %s USING (%s) WITH CHECK (%s)`, policy, n, tenant, tenant),
		fmt.Sprintf(`REVOKE ALL ON %s FROM PUBLIC`, n),
		// The role name passed validate(): a plain lower-case name, safe in a literal.
		fmt.Sprintf(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '%s') THEN CREATE ROLE %s NOLOGIN; END IF; END $$`,
			t.AppRole, ident(t.AppRole)),
		// Append-only, as KB-005: a version is inserted whole and deleted whole.
		fmt.Sprintf(`GRANT SELECT, INSERT, DELETE ON %s TO %s`, n, ident(t.AppRole)),
		`CREATE TABLE IF NOT EXISTS ` + stateTable + ` (
	table_name         text NOT NULL,
	tenant_id          uuid NOT NULL,
	source_label       text NOT NULL,
	snapshot_name      text NOT NULL,
	corpus_fingerprint text NOT NULL,
	chunks_sha256      text NOT NULL,
	embedder           text NOT NULL,
	dims               integer NOT NULL,
	row_count          integer NOT NULL,
	inserted           integer NOT NULL,
	deleted            integer NOT NULL,
	synced_at          timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (table_name, tenant_id, source_label)
)`,
		`REVOKE ALL ON ` + stateTable + ` FROM PUBLIC`,
	}
}

// migration2 adds the snapshot's chunk_id to every row, indexed per
// tenant, so the ids ingest diff --format json lists find their rows. A row
// written before it has none; the next sync replaces every such row (a
// row's id covers snapshot_chunk_id), so the column is filled by then.
func migration2(t Table) []string {
	n := ident(t.Name)
	return []string{
		fmt.Sprintf(`ALTER TABLE %s ADD COLUMN IF NOT EXISTS snapshot_chunk_id uuid`, n),
		fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s (tenant_id, snapshot_chunk_id)`, ident(t.Name+"_snapshot_chunk_idx"), n),
	}
}

// migration3 adds the snapshot's search_text (what ingest's embedder read
// and its BM25 indexes: the header and the text as a reader sees it) and
// search_tsv, its tsvector, which PostgreSQL computes (a stored generated
// column: no sync computes it, so it cannot disagree with search_text),
// stemmed in the chunk's language (english, portuguese; simple for a
// language it does not know), and a GIN index on it, so a consumer's
// lexical leg reads what ingest's does. A row written before it has no
// search_text; its search_tsv reads its header and verbatim text until the
// next sync replaces it (a row's id covers search_text).
func migration3(t Table) []string {
	n := ident(t.Name)
	return []string{
		fmt.Sprintf(`ALTER TABLE %s ADD COLUMN IF NOT EXISTS search_text text`, n),
		fmt.Sprintf(`ALTER TABLE %s ADD COLUMN IF NOT EXISTS search_tsv tsvector GENERATED ALWAYS AS (to_tsvector(
	CASE lang WHEN 'en' THEN 'english'::regconfig WHEN 'pt' THEN 'portuguese'::regconfig ELSE 'simple'::regconfig END,
	coalesce(search_text, context_header || E'\n\n' || chunk_text))) STORED`, n),
		fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s USING gin (search_tsv)`, ident(t.Name+"_search_idx"), n),
	}
}

// Migrate applies the migrations the table lacks, in one transaction, and
// returns the versions it applied. A table that exists with another shape
// is left as it is; Check reports it.
func Migrate(ctx context.Context, conn *pgx.Conn, t Table) (applied []int, err error) {
	if err := t.validate(); err != nil {
		return nil, err
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('ingest-migrate', 0))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+migrationsTable+` (
	table_name text NOT NULL,
	version    integer NOT NULL,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (table_name, version)
)`); err != nil {
			return err
		}
		have, err := appliedVersion(ctx, tx, t.Name)
		if err != nil {
			return err
		}
		if err := adoptable(ctx, tx, t, have); err != nil {
			return err
		}
		for _, m := range migrations {
			if m.version <= have {
				continue
			}
			for _, stmt := range m.sql(t) {
				if _, err := tx.Exec(ctx, stmt); err != nil {
					return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO `+migrationsTable+` (table_name, version, name) VALUES ($1, $2, $3)`,
				t.Name, m.version, m.name); err != nil {
				return err
			}
			applied = append(applied, m.version)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("migrate %s: %w", t.Name, err)
	}
	return applied, nil
}

// tableExists reports whether the table (or any relation) name exists.
func tableExists(ctx context.Context, q querier, name string) (bool, error) {
	var exists bool
	err := q.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&exists)
	return exists, err
}

// adoptable refuses to migrate a table that exists without a record of
// its migrations (made by hand, or by another tool) unless its columns are
// already what this build writes: a migration must never half-change a
// table it did not make.
func adoptable(ctx context.Context, q querier, t Table, applied int) error {
	if exists, err := tableExists(ctx, q, t.Name); err != nil || !exists || applied > 0 {
		return err
	}
	problems, err := checkColumns(ctx, q, t)
	if err != nil || len(problems) == 0 {
		return err
	}
	return &MismatchError{Table: t.Name, Problems: problems}
}

// appliedVersion is the last migration recorded for a table, 0 for none.
func appliedVersion(ctx context.Context, q querier, table string) (int, error) {
	if exists, err := tableExists(ctx, q, migrationsTable); err != nil || !exists {
		return 0, err
	}
	var v int
	err := q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM `+migrationsTable+` WHERE table_name = $1`, table).Scan(&v)
	return v, err
}

// ErrNoTable is a sync to a table that does not exist, without --migrate.
var ErrNoTable = errors.New("table does not exist")

// MismatchError is an existing table that is not what this build writes:
// every difference found, so one look fixes them all.
type MismatchError struct {
	Table    string
	Problems []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("table %s does not match what ingest sync writes: %s", e.Table, strings.Join(e.Problems, "; "))
}

// Check compares an existing table with what this build writes: migration
// version, columns (name, type, nullability), row-level security and the
// sync state table. A table created by hand passes if its shape is right.
func Check(ctx context.Context, q querier, t Table) error {
	if err := t.validate(); err != nil {
		return err
	}
	exists, err := tableExists(ctx, q, t.Name)
	if err != nil {
		return fmt.Errorf("check %s: %w", t.Name, err)
	}
	if !exists {
		return fmt.Errorf("%s: %w (ingest sync --migrate creates it)", t.Name, ErrNoTable)
	}
	v, err := appliedVersion(ctx, q, t.Name)
	if err != nil {
		return fmt.Errorf("check %s: %w", t.Name, err)
	}
	mm := &MismatchError{Table: t.Name}
	switch {
	case v > LatestMigration:
		mm.Problems = append(mm.Problems, fmt.Sprintf("migrated to version %d by a newer ingest; this one knows %d", v, LatestMigration))
	case v > 0 && v < LatestMigration:
		mm.Problems = append(mm.Problems, fmt.Sprintf("at migration version %d, this ingest needs %d (--migrate applies it)", v, LatestMigration))
	}
	problems, err := checkShape(ctx, q, t)
	if err != nil {
		return fmt.Errorf("check %s: %w", t.Name, err)
	}
	mm.Problems = append(mm.Problems, problems...)
	if len(mm.Problems) > 0 {
		return mm
	}
	return nil
}

// checkShape lists how the table's columns, row-level security and the
// sync state table differ from what this build writes.
func checkShape(ctx context.Context, q querier, t Table) ([]string, error) {
	problems, err := checkColumns(ctx, q, t)
	if err != nil {
		return nil, err
	}
	var rls, force bool
	if err := q.QueryRow(ctx, `SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE oid = to_regclass($1)`, t.Name).Scan(&rls, &force); err != nil {
		return nil, err
	}
	if !rls || !force {
		problems = append(problems, "row-level security is not enabled and forced (--migrate does it)")
	}
	state, err := tableExists(ctx, q, stateTable)
	if err != nil {
		return nil, err
	}
	if !state {
		problems = append(problems, "no "+stateTable+" table (--migrate creates it)")
	}
	return problems, nil
}

// checkColumns lists how the table's columns differ from what this build
// writes: missing, of another type, nullable where they must not be, or a
// column of its own that an insert cannot leave out.
func checkColumns(ctx context.Context, q querier, t Table) ([]string, error) {
	rows, err := q.Query(ctx, `SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef
		FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped`, t.Name)
	if err != nil {
		return nil, err
	}
	type have struct {
		typ                 string
		notNull, hasDefault bool
	}
	got := map[string]have{}
	var name string
	var h have
	_, err = pgx.ForEachRow(rows, []any{&name, &h.typ, &h.notNull, &h.hasDefault}, func() error {
		got[name] = h
		return nil
	})
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, c := range t.columns() {
		g, ok := got[c.name]
		delete(got, c.name)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("no column %s %s", c.name, c.typ))
		case g.typ != c.typ:
			problems = append(problems, fmt.Sprintf("column %s is %s, want %s", c.name, g.typ, c.typ))
		case c.notNull && !g.notNull:
			problems = append(problems, fmt.Sprintf("column %s is nullable, want NOT NULL", c.name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(got)) { // a column of the owner's own is fine if an insert can leave it out
		if g := got[name]; g.notNull && !g.hasDefault {
			problems = append(problems, fmt.Sprintf("column %s is NOT NULL without a default, and ingest does not write it", name))
		}
	}
	return problems, nil
}
