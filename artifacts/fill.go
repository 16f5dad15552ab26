package artifacts

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/schema"
)

// Filler reads what rows read without it (CursorWithoutVectors,
// CursorLean) for the rows that need it after all, opening only the row
// groups it is asked rows of: the rows a writer encodes instead of
// copying, a run's documents made again. A reader that copies most row
// groups (a merge, a night that takes most documents whole) pays for the
// whole of the few rows it encodes, not of every row. One Filler is for
// one goroutine; a file may have several.
type Filler struct {
	r         *rowReader
	vectors   bool  // only the vectors: the file's rows lack nothing else
	next, end int64 // the file row r reads next; the end of its row group
}

// Filler opens a Filler on the file, once its cursors are opened: it reads
// the vectors alone when they are all the rows lack, else whole rows.
func (cf *ChunkFile) Filler() *Filler {
	f := &Filler{r: cf.rows(context.Background())}
	if cf.lacks == bit(chunkrow.LeafEmbedding) {
		f.r.read, f.vectors = cf.lacks, true
	}
	return f
}

// Fill completes rows, the file's rows from its row first on. Rows asked
// in file order cost one read of their row groups; a row before the last
// one asked reopens its row group.
func (f *Filler) Fill(first int64, rows []schema.Chunk) (err error) {
	defer recoverAs(&err, "read rows")
	cf := f.r.cf
	for i := range rows {
		n := first + int64(i)
		if n < f.next || n >= f.end {
			if n < 0 || n >= cf.Rows {
				return fmt.Errorf("read rows: row %d of a file of %d", n, cf.Rows)
			}
			g := cf.index.GroupOf(n)
			f.r.group, f.r.left = g, 0
			f.next, f.end = cf.index.Start(g), cf.index.Start(g+1)
		}
		for ; f.next <= n; f.next++ {
			if ok, err := f.r.advance(); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("read rows: the file ends before row %d", f.next)
			}
		}
		if !f.vectors {
			if err := chunkrow.Assemble(&rows[i], &f.r.row); err != nil {
				return err
			}
			continue
		}
		rows[i].Embedding = append([]float32(nil), f.r.row[chunkrow.LeafEmbedding].F32...)
	}
	return nil
}

// Close releases the pages the Filler holds; it is safe on a nil Filler,
// and the Filler may be used again.
func (f *Filler) Close() {
	if f != nil {
		f.r.close()
	}
}
