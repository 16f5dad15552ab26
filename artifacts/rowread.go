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
	// read are the leaves read; the others' columns are left unread, and
	// rows come with their zero values (see ChunkFile.lacks).
	read leafSet
}

// leafSet is a set of chunks.parquet's leaves, chunkrow.Leaf*, a bit each.
type leafSet uint64

const allLeaves = leafSet(1)<<chunkrow.LeafCount - 1

func bit(i int) leafSet          { return 1 << i }
func (s leafSet) has(i int) bool { return s&bit(i) != 0 }

func setOf(ls ...int) leafSet {
	var s leafSet
	for _, l := range ls {
		s |= bit(l)
	}
	return s
}

// leanLeaves are what a run reads of a row it takes whole, and a merge of
// every row: what the manifest's counts, the report's sizes and rejects,
// the thresholds proposal, the audit and the writer's checks read. A
// writer that encodes such a row reads the rest of it (Filler); most are
// copied with their row group, never decoded. The text is read for the
// sizes in characters; the search text, header, quantities, metadata and
// vector, most of a row's values, are not.
var leanLeaves = setOf(chunkrow.LeafChunkID, chunkrow.LeafContentHash, chunkrow.LeafDocPath, chunkrow.LeafDocVersion,
	chunkrow.LeafLang, chunkrow.LeafKind, chunkrow.LeafElement, chunkrow.LeafSafety, chunkrow.LeafSectionPath,
	chunkrow.LeafChunkOrder, chunkrow.LeafText, chunkrow.LeafLineStart, chunkrow.LeafLineEnd, chunkrow.LeafByteStart,
	chunkrow.LeafByteEnd, chunkrow.LeafTokenCount, chunkrow.LeafHeaderSource, chunkrow.LeafHeaderRejects) |
	(bit(10)-1)<<chunkrow.LeafThresholds // a threshold's 10 fields

// tallyLeaves are leanLeaves less what a merge given its parts' size tallies never reads.
var tallyLeaves = leanLeaves &^ setOf(chunkrow.LeafChunkID, chunkrow.LeafContentHash, chunkrow.LeafDocVersion,
	chunkrow.LeafSectionPath, chunkrow.LeafText, chunkrow.LeafHeaderSource, chunkrow.LeafHeaderRejects)

func (cf *ChunkFile) rows(ctx context.Context) *rowReader {
	return &rowReader{cf: cf, ctx: ctx, view: cf.index.View(cf.index.Blocks(cf.f), fileOptions...), read: allLeaves}
}

// next reads the next row into c, and reports false at the end.
func (r *rowReader) next(c *schema.Chunk) (bool, error) {
	ok, err := r.advance()
	if !ok || err != nil {
		return ok, err
	}
	return true, chunkrow.Assemble(c, &r.row)
}

// advance reads the next row's values of the leaves read into r.row, and
// reports false at the end.
func (r *rowReader) advance() (bool, error) {
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
			r.row[i].Reset() // a column the file's version lacks, or not read: nulls
			r.row[i].Def = append(r.row[i].Def, 0)
			continue
		}
		if err := col.Read(&r.row[i]); err != nil {
			return false, fmt.Errorf("read chunks: %w", err)
		}
	}
	r.left--
	return true, nil
}

// open starts reading a row group.
func (r *rowReader) open(rg parquet.RowGroup) {
	r.closeColumns()
	chunks := rg.ColumnChunks()
	for i, col := range r.cf.leaves {
		if col == nil || !r.read.has(i) {
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
