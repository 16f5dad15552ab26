package artifacts

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/artifacts/internal/columns"
	"github.com/ocean-safety/ingest/schema"
)

// vectorReader reads a file's embedding column forward, opening only the
// row groups it is asked rows of: the vectors of rows read without them
// (CursorWithoutVectors) that a writer encodes after all.
type vectorReader struct {
	col       *columns.Reader
	next, end int64 // the file row col reads next; the end of its row group
	row       columns.Row
}

// fillVectors sets the embeddings of rows, the file's rows from its row
// first on, read without them. A merge reads its parts' rows so, as it
// copies most of their row groups, and fills the few rows it encodes:
// vectors are most of a row's bytes.
func (cf *ChunkFile) fillVectors(first int64, rows []schema.Chunk) (err error) {
	defer recoverAs(&err, "read vectors")
	col := cf.leaves[chunkrow.LeafEmbedding]
	if col == nil {
		return nil // a file of a version without vectors
	}
	if cf.vec == nil {
		cf.vec = &vectorReader{}
	}
	v := cf.vec
	for i := range rows {
		r := first + int64(i)
		if v.col == nil || r < v.next || r >= v.end {
			if r < 0 || r >= cf.Rows {
				return fmt.Errorf("read vectors: row %d of a file of %d", r, cf.Rows)
			}
			starts := cf.groupStarts()
			g, found := slices.BinarySearch(starts, r)
			if !found {
				g-- // r lies inside group g-1
			}
			v.close()
			rg := cf.pf.RowGroups()[g]
			v.col = columns.NewReader(strings.Join(col.Path(), "."), rg.ColumnChunks()[col.Index()].Pages(),
				col.Type().Kind(), col.MaxRepetitionLevel(), col.MaxDefinitionLevel())
			v.next, v.end = starts[g], starts[g+1]
		}
		for ; v.next <= r; v.next++ {
			if err := v.col.Read(&v.row); err != nil {
				return fmt.Errorf("read vectors: %w", err)
			}
		}
		rows[i].Embedding = append([]float32(nil), v.row.F32...)
	}
	return nil
}

func (v *vectorReader) close() {
	if v != nil && v.col != nil {
		v.col.Close()
		v.col = nil
	}
}
