package pgsync

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IndexKind is the approximate-nearest-neighbour index on embedding.
type IndexKind string

// The ANN indexes pgvector offers.
const (
	IndexHNSW    IndexKind = "hnsw"    // the default: good recall without training, kept up to date row by row
	IndexIVFFlat IndexKind = "ivfflat" // lists = floor(sqrt(rows)), as KB-005 specifies
)

// ParseIndex returns the IndexKind named by s; "" keeps the table's.
func ParseIndex(s string) (IndexKind, error) {
	switch IndexKind(s) {
	case "", IndexHNSW, IndexIVFFlat:
		return IndexKind(s), nil
	}
	return "", fmt.Errorf("index %q: want hnsw or ivfflat", s)
}

// Index actions.
const (
	IndexKeep    = "keep"
	IndexCreate  = "create"
	IndexRebuild = "rebuild" // another kind, or ivfflat lists out of range
)

// IndexChange is what a sync does to the table's ANN index.
type IndexChange struct {
	Kind   IndexKind `json:"kind"`
	Lists  int       `json:"lists,omitempty"` // ivfflat's, as built or kept
	Action string    `json:"action"`
	Had    string    `json:"had,omitempty"` // the index it found, as "hnsw" or "ivfflat lists=N"
}

// annIndex is an ANN index found on the table.
type annIndex struct {
	name, method string
	lists        int
}

func (a annIndex) String() string {
	if a.method == string(IndexIVFFlat) {
		return fmt.Sprintf("ivfflat lists=%d", a.lists)
	}
	return a.method
}

// listsFor is ivfflat's list count for a table of n rows: floor(sqrt(n)),
// at least 1.
func listsFor(n int) int { return max(1, int(math.Floor(math.Sqrt(float64(n))))) }

// listsTolerance: an ivfflat index is rebuilt only when its lists are off
// by more than this factor. Rebuilding re-clusters every vector of every
// tenant under a lock, and floor(sqrt(rows)) moves with every sync; recall
// barely changes within a factor of two.
const listsTolerance = 2

// planIndex decides what the sync does to the ANN index of a table that
// will hold rows rows (every tenant's). An empty want keeps the kind the
// table has (HNSW if it has none): a nightly sync without --index does not
// undo an index an operator chose.
func planIndex(have []annIndex, want IndexKind, rows int) IndexChange {
	if want == "" {
		want = IndexHNSW
		if len(have) == 1 {
			want = IndexKind(have[0].method)
		}
	}
	ch := IndexChange{Kind: want, Action: IndexCreate}
	if want == IndexIVFFlat {
		ch.Lists = listsFor(rows)
	}
	var had []string
	for _, a := range have {
		had = append(had, a.String())
	}
	ch.Had = strings.Join(had, ", ")
	if len(have) == 0 {
		return ch
	}
	ch.Action = IndexRebuild
	if len(have) == 1 && have[0].method == string(want) {
		if want == IndexHNSW {
			ch.Action = IndexKeep
		} else if l := have[0].lists; l*listsTolerance >= ch.Lists && l <= ch.Lists*listsTolerance {
			ch.Action, ch.Lists = IndexKeep, l
		}
	}
	return ch
}

// readIndexes lists the ANN indexes on the table.
func readIndexes(ctx context.Context, q querier, t Table) ([]annIndex, error) {
	rows, err := q.Query(ctx, `SELECT i.relname, am.amname, coalesce(array_to_string(i.reloptions, ','), '')
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am am ON am.oid = i.relam
		WHERE x.indrelid = to_regclass($1) AND am.amname IN ('hnsw', 'ivfflat') ORDER BY i.relname`, t.Name)
	if err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", t.Name, err)
	}
	defer rows.Close()
	var out []annIndex
	for rows.Next() {
		var a annIndex
		var opts string
		if err := rows.Scan(&a.name, &a.method, &opts); err != nil {
			return nil, err
		}
		for _, o := range strings.Split(opts, ",") {
			if v, ok := strings.CutPrefix(o, "lists="); ok {
				a.lists, _ = strconv.Atoi(v)
			}
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// tableRowCount is the number of rows of every tenant, as the planner knows it
// after ANALYZE: under forced row-level security a count(*) would see one
// tenant's rows. -1 when the table was never analysed.
func tableRowCount(ctx context.Context, q querier, t Table) (int, error) {
	var n float64
	err := q.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = to_regclass($1)`, t.Name).Scan(&n)
	return int(n), err
}

// applyIndex carries out ch: drops the ANN indexes found, creates the one wanted.
func applyIndex(ctx context.Context, q querier, t Table, have []annIndex, ch IndexChange) error {
	if ch.Action == IndexKeep {
		return nil
	}
	for _, a := range have {
		if _, err := q.Exec(ctx, "DROP INDEX "+ident(a.name)); err != nil {
			return fmt.Errorf("drop index %s: %w", a.name, err)
		}
	}
	name := ident(t.Name + "_embedding_" + string(ch.Kind))
	// Cosine: embeddings are L2-normalised, and retrievers rank with <=>.
	sql := fmt.Sprintf("CREATE INDEX %s ON %s USING hnsw (embedding vector_cosine_ops)", name, ident(t.Name))
	if ch.Kind == IndexIVFFlat {
		sql = fmt.Sprintf("CREATE INDEX %s ON %s USING ivfflat (embedding vector_cosine_ops) WITH (lists = %d)", name, ident(t.Name), ch.Lists)
	}
	if _, err := q.Exec(ctx, sql); err != nil {
		return fmt.Errorf("create %s index on %s: %w", ch.Kind, t.Name, err)
	}
	return nil
}
