package artifacts

import (
	"fmt"
	"strings"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/artifacts/internal/columns"
	"github.com/ocean-safety/ingest/artifacts/internal/footer"
	"github.com/ocean-safety/ingest/schema"
)

// VectorReader reads a file's embedding column forward, opening only the
// row groups it is asked rows of: the vectors of rows read without them
// (CursorWithoutVectors) that are needed after all. A reader that reads
// rows without vectors and copies most of their row groups (a merge, a
// night that takes most documents whole) pays for the vectors of the few
// rows it encodes or makes again: vectors are most of a row's bytes. One
// VectorReader is for one goroutine; a file may have several.
type VectorReader struct {
	cf        *ChunkFile
	view      *footer.View
	col       *columns.Reader
	next, end int64 // the file row col reads next; the end of its row group
	row       columns.Row
}

// Vectors opens a VectorReader on the file.
func (cf *ChunkFile) Vectors() *VectorReader {
	return &VectorReader{cf: cf, view: cf.index.View(cf.index.Blocks(cf.f), fileOptions...)}
}

// Fill sets the embeddings of rows, the file's rows from its row first on.
// Rows asked in file order cost one read of their row groups' vectors;
// a row before the last one asked reopens its row group.
func (v *VectorReader) Fill(first int64, rows []schema.Chunk) (err error) {
	defer recoverAs(&err, "read vectors")
	cf := v.cf
	col := cf.leaves[chunkrow.LeafEmbedding]
	if col == nil {
		return nil // a file of a version without vectors
	}
	for i := range rows {
		r := first + int64(i)
		if v.col == nil || r < v.next || r >= v.end {
			if r < 0 || r >= cf.Rows {
				return fmt.Errorf("read vectors: row %d of a file of %d", r, cf.Rows)
			}
			g := cf.index.GroupOf(r)
			v.Close()
			pf, i, err := v.view.At(g)
			if err != nil {
				return fmt.Errorf("read %s: %w", cf.path, err)
			}
			rg := pf.RowGroups()[i]
			v.col = columns.NewReader(strings.Join(col.Path(), "."), rg.ColumnChunks()[col.Index()].Pages(),
				col.Type().Kind(), col.MaxRepetitionLevel(), col.MaxDefinitionLevel())
			v.next, v.end = cf.index.Start(g), cf.index.Start(g+1)
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

// Close releases the page the reader holds; it is safe on a nil
// VectorReader, and the reader may be used again.
func (v *VectorReader) Close() {
	if v != nil && v.col != nil {
		v.col.Close()
		v.col = nil
	}
}
