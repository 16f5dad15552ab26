package artifacts

import (
	"context"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/schema"
)

// Cursor reads a chunks.parquet forward, one document at a time: what a run
// needs to walk the previous snapshot in step with the corpus, holding a
// page of each column in memory. A merge holds a cursor per part open, so
// its memory grows with that.
type Cursor struct {
	r       *rowReader
	pending *schema.Chunk // read but not yet handed out
	done    bool
	n       int64 // rows read from the file, pending's included
}

// Read is how many rows the cursor has handed out: the file's row of the
// next one.
func (c *Cursor) Read() int64 {
	if c.pending != nil {
		return c.n - 1
	}
	return c.n
}

// Cursor opens a forward reader over the file's rows.
func (cf *ChunkFile) Cursor(ctx context.Context) (*Cursor, error) {
	return &Cursor{r: cf.rows(ctx)}, nil
}

// CursorWithoutVectors is Cursor for a reader that needs no vector: its
// rows come with none, and the embedding column is not read.
func (cf *ChunkFile) CursorWithoutVectors(ctx context.Context) (*Cursor, error) {
	return cf.cursorOf(ctx, allLeaves&^bit(chunkrow.LeafEmbedding)), nil
}

// CursorLean is Cursor for a reader that tallies rows and hands them to a
// writer that copies most of their row groups (a night that takes most
// documents whole, a merge): its rows hold no vector, only leanLeaves
// (ids, path, version, order, enums, numbers, text, header source and
// rejects, thresholds), or with tallied (a merge given its parts' size
// tallies) tallyLeaves; a Filler reads the rest of a row the writer encodes.
func (cf *ChunkFile) CursorLean(ctx context.Context, tallied bool) *Cursor {
	if tallied {
		return cf.cursorOf(ctx, tallyLeaves)
	}
	return cf.cursorOf(ctx, leanLeaves)
}

func (cf *ChunkFile) cursorOf(ctx context.Context, read leafSet) *Cursor {
	r := cf.rows(ctx)
	r.read = read
	cf.lacks |= allLeaves &^ read
	return &Cursor{r: r}
}

// Next returns the next row, or nil at the end.
func (c *Cursor) Next() (_ *schema.Chunk, err error) {
	defer recoverAs(&err, "read chunks")
	if c.pending != nil {
		ch := c.pending
		c.pending = nil
		return ch, nil
	}
	if c.done {
		return nil, nil
	}
	ch := new(schema.Chunk)
	ok, err := c.r.next(ch)
	if err != nil {
		return nil, err
	}
	if !ok {
		c.done = true
		return nil, nil
	}
	c.n++
	return ch, nil
}

// Until returns the chunk ids of every document before path (documents the
// new corpus no longer has) and the rows of path itself, and leaves the
// cursor on the next document. Paths must be asked for in ascending order.
// A gone document counts only when keep takes its path (nil keeps all): a
// shard's run passes over the other shards' documents.
func (c *Cursor) Until(path string, keep func(string) bool) (gone []string, doc []schema.Chunk, err error) {
	for {
		ch, err := c.Next()
		if err != nil || ch == nil {
			return gone, doc, err
		}
		switch {
		case ch.DocPath < path:
			if keep == nil || keep(ch.DocPath) {
				gone = append(gone, ch.ChunkID)
			}
		case ch.DocPath == path:
			doc = append(doc, *ch)
		default:
			c.pending = ch
			return gone, doc, nil
		}
	}
}

// Rest returns the chunk ids of every row not read yet whose document keep
// takes (nil keeps all).
func (c *Cursor) Rest(keep func(string) bool) ([]string, error) {
	var out []string
	for {
		ch, err := c.Next()
		if err != nil || ch == nil {
			return out, err
		}
		if keep == nil || keep(ch.DocPath) {
			out = append(out, ch.ChunkID)
		}
	}
}

// Close releases the reader.
func (c *Cursor) Close() { c.r.close() }
