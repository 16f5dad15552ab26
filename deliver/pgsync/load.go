package pgsync

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Load is how rows reach the table.
type Load string

// The ways to load rows.
const (
	// LoadCopy streams each batch with COPY … FROM STDIN in the binary
	// format (pgx CopyFrom): the fastest path into PostgreSQL.
	LoadCopy Load = "copy"
	// LoadInsert sends each batch as one multi-row INSERT: for servers and
	// proxies that cannot COPY FROM STDIN (PGlite behind the stock
	// pglite-socket server dies on it; some poolers refuse it).
	LoadInsert Load = "insert"
)

// DefaultLoad is COPY: what real PostgreSQL does fastest.
const DefaultLoad = LoadCopy

// ParseLoad returns the Load named by s.
func ParseLoad(s string) (Load, error) {
	switch Load(s) {
	case LoadCopy, LoadInsert:
		return Load(s), nil
	}
	return "", fmt.Errorf("load %q: want copy or insert", s)
}

// batchRows bounds what a sync holds in memory: 500 rows of a 1024-float
// vector (4 KB) and a chunk's text are about 2.5 MB, and a multi-row INSERT
// of 500 rows × 19 columns stays far below PostgreSQL's 65535 parameters.
const batchRows = 500

// loader writes one batch of rows (values in Table.insertColumns order).
type loader interface {
	load(ctx context.Context, tx pgx.Tx, rows [][]any) (int64, error)
}

func newLoader(how Load, t Table) loader {
	if how == LoadInsert {
		return insertLoader{t}
	}
	return copyLoader{t}
}

type copyLoader struct{ t Table }

func (l copyLoader) load(ctx context.Context, tx pgx.Tx, rows [][]any) (int64, error) {
	return tx.CopyFrom(ctx, pgx.Identifier{l.t.Name}, l.t.insertColumns(), pgx.CopyFromRows(rows))
}

type insertLoader struct{ t Table }

func (l insertLoader) load(ctx context.Context, tx pgx.Tx, rows [][]any) (int64, error) {
	cols := l.t.insertColumns()
	var sql strings.Builder
	fmt.Fprintf(&sql, "INSERT INTO %s (%s) VALUES ", ident(l.t.Name), strings.Join(cols, ", "))
	args := make([]any, 0, len(rows)*len(cols))
	for i, r := range rows {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteByte('(')
		for j := range r {
			if j > 0 {
				sql.WriteString(", ")
			}
			fmt.Fprintf(&sql, "$%d", len(args)+j+1)
		}
		sql.WriteByte(')')
		args = append(args, r...)
	}
	tag, err := tx.Exec(ctx, sql.String(), args...)
	return tag.RowsAffected(), err
}
