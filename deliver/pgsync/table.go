package pgsync

import (
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5"
)

// Defaults of a sync.
const (
	DefaultTable   = "kb_semantic_chunks" // KB-005's table
	DefaultAppRole = "kb_app"             // the role retrievers connect as: SELECT, INSERT, DELETE
)

// Tables of the sync's own bookkeeping, shared by every chunks table.
const (
	stateTable      = "kb_sync_state"
	migrationsTable = "kb_schema_migrations"
)

// maxNameLen leaves room in PostgreSQL's 63-byte identifiers for the
// suffixes of the table's index and policy names.
const maxNameLen = 40

var identRe = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// Table is the chunks table a sync writes: its name, the width of its
// vectors and the role retrievers use.
type Table struct {
	Name    string
	Dims    int
	AppRole string
}

// validate checks the names before they reach SQL: they are quoted too,
// but a name that needs quoting is a typo more often than a wish.
func (t Table) validate() error {
	for _, n := range []struct{ flag, v string }{{"table", t.Name}, {"app role", t.AppRole}} {
		if !identRe.MatchString(n.v) || len(n.v) > maxNameLen {
			return fmt.Errorf("%s %q: want a lower-case SQL name of letters, digits and _ (at most %d)", n.flag, n.v, maxNameLen)
		}
	}
	if t.Dims < 1 || t.Dims > 2000 { // pgvector indexes vectors of up to 2000 dimensions
		return fmt.Errorf("embedding dims %d: pgvector indexes 1 to 2000", t.Dims)
	}
	return nil
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

// column is one column of the chunks table as PostgreSQL's format_type
// names its type.
type column struct {
	name, typ string
	notNull   bool
	server    bool // filled by the server (a default, a generated column), never by an insert
}

// columns are the table's columns in order: KB-005's, then what a retriever
// filters on and cites, then the full-text search columns. created_at is
// filled by its default, search_tsv generated from search_text.
func (t Table) columns() []column {
	return []column{
		{"chunk_id", "uuid", true, false},
		{"tenant_id", "uuid", true, false},
		{"doc_id", "uuid", true, false},
		{"version_id", "uuid", true, false},
		{"chunk_kind", "text", true, false},
		{"chunk_text", "text", true, false},
		{"embedding", fmt.Sprintf("vector(%d)", t.Dims), true, false},
		{"chunk_order", "integer", true, false},
		{"created_at", "timestamp with time zone", true, true},
		{"kind", "text", true, false},
		{"lang", "text", true, false},
		{"source_label", "text", true, false},
		{"beach_id", "text", false, false},
		{"section_path", "text[]", true, false},
		{"context_header", "text", true, false},
		{"content_hash", "text", true, false},
		{"safety", "boolean", true, false},
		{"doc_path", "text", true, false},
		{"doc_title", "text", true, false},
		{"source_url", "text", true, false},
		{"snapshot_chunk_id", "uuid", false, false}, // migration 2: null only on rows of a table migrated before any sync since
		{"search_text", "text", false, false},       // migration 3: null on rows synced before it, or from a snapshot before schema 5
		{"search_tsv", "tsvector", false, true},     // migration 3: generated from search_text
	}
}

// insertColumns are the columns a sync writes: all but those the server
// fills (created_at, search_tsv).
func (t Table) insertColumns() []string {
	var out []string
	for _, c := range t.columns() {
		if !c.server {
			out = append(out, c.name)
		}
	}
	return out
}

// createSQL is the table as migration 1 creates it: literal SQL, as it
// was released. The CHECK lists are the kinds, languages and elements of
// that release, written out: a new one arrives as a new migration that
// replaces the constraint (TestMigrationsAllowEveryValue), never as an edit
// here, which tables made before would not see (TestMigrationsFrozen).
func (t Table) createSQL() string {
	return fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %[1]s (
	chunk_id       uuid PRIMARY KEY,
	tenant_id      uuid NOT NULL,
	doc_id         uuid NOT NULL,
	version_id     uuid NOT NULL,
	chunk_kind     text NOT NULL CHECK (chunk_kind IN ('paragraph', 'section_heading', 'code_block', 'list_item', 'table_row')),
	chunk_text     text NOT NULL,
	embedding      vector(%[2]d) NOT NULL,
	chunk_order    integer NOT NULL CHECK (chunk_order >= 0),
	created_at     timestamptz NOT NULL DEFAULT now(),
	kind           text NOT NULL CHECK (kind IN ('prose', 'safety', 'lore', 'structured')),
	lang           text NOT NULL CHECK (lang IN ('en', 'pt')),
	source_label   text NOT NULL,
	beach_id       text,
	section_path   text[] NOT NULL,
	context_header text NOT NULL,
	content_hash   text NOT NULL,
	safety         boolean NOT NULL,
	doc_path       text NOT NULL,
	doc_title      text NOT NULL,
	source_url     text NOT NULL,
	UNIQUE (tenant_id, doc_id, version_id, chunk_order)
)`, ident(t.Name), t.Dims)
}
