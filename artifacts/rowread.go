package artifacts

import (
	"context"
	"fmt"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/artifacts/internal/columns"
	"github.com/ocean-safety/ingest/artifacts/internal/footer"
	"github.com/ocean-safety/ingest/schema"
)

// rowReader reads a file's rows in order, a row group after the other,
// holding a page of each column.
type rowReader struct {
	cf    *ChunkFile
	ctx   context.Context
	group int // the next row group
	view  *footer.View
	left  int64 // rows not yet read in the open one
	cols  [chunkrow.LeafCount]*columns.Reader
	row   [chunkrow.LeafCount]columns.Row
	// noVectors leaves the embedding column unread: rows come without
	// their vectors, most of a row's bytes.
	noVectors bool
}

func (cf *ChunkFile) rows(ctx context.Context) *rowReader {
	return &rowReader{cf: cf, ctx: ctx, view: cf.index.View(cf.index.Blocks(cf.f), fileOptions...)}
}

// next reads the next row into c, and reports false at the end.
func (r *rowReader) next(c *schema.Chunk) (bool, error) {
	for r.left == 0 {
		if r.group == r.cf.index.Groups() {
			return false, nil
		}
		if err := r.ctx.Err(); err != nil {
			return false, err
		}
		pf, i, err := r.view.At(r.group)
		if err != nil {
			return false, fmt.Errorf("read %s: %w", r.cf.path, err)
		}
		r.open(pf.RowGroups()[i])
		r.group++
	}
	for i, col := range r.cols {
		if col == nil {
			r.row[i].Reset() // a column the file's version lacks: nulls
			r.row[i].Def = append(r.row[i].Def, 0)
			continue
		}
		if err := col.Read(&r.row[i]); err != nil {
			return false, fmt.Errorf("read chunks: %w", err)
		}
	}
	r.left--
	return true, chunkrow.Assemble(c, &r.row)
}

// open starts reading a row group.
func (r *rowReader) open(rg parquet.RowGroup) {
	r.closeColumns()
	chunks := rg.ColumnChunks()
	for i, col := range r.cf.leaves {
		if col == nil || r.noVectors && i == chunkrow.LeafEmbedding {
			continue
		}
		r.cols[i] = columns.NewReader(strings.Join(col.Path(), "."), chunks[col.Index()].Pages(),
			col.Type().Kind(), col.MaxRepetitionLevel(), col.MaxDefinitionLevel())
	}
	r.left = rg.NumRows()
}

func (r *rowReader) closeColumns() {
	for i, c := range r.cols {
		if c != nil {
			c.Close()
			r.cols[i] = nil
		}
	}
}

func (r *rowReader) close() { r.closeColumns() }
