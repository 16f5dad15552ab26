package artifacts

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ocean-safety/ingest/schema"
)

const (
	// rowGroupRows is the unit readers load: a row is about 5 KB (a
	// 1024-float vector and its text), so a row group is about 10 MB.
	rowGroupRows = 2048
	// createdBy is pinned so the bytes do not change with the library version.
	createdBy = "ingest (arrow-go parquet v18)"
)

// ChunkWriter streams chunks into a Parquet file, a batch of rows at a
// time into the open row group, so memory stays flat however large the
// corpus.
type ChunkWriter struct {
	f    io.WriteCloser
	fw   *pqarrow.FileWriter
	rb   *array.RecordBuilder
	b    builders
	set  writerSettings
	dims int
	rows int
	// The last row's key, to check the order.
	lastPath  string
	lastOrder int
}

// NewChunkWriter creates the Parquet file at path for dims-wide embeddings.
func NewChunkWriter(path string, dims int) (*ChunkWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return NewChunkWriterTo(f, path, dims)
}

// NewChunkWriterTo writes the Parquet file to f (tests wrap a file to inject
// faults); f is synced, when it can be, and closed by Close.
func NewChunkWriterTo(f io.WriteCloser, path string, dims int) (*ChunkWriter, error) {
	return newChunkWriter(f, path, dims, shipped)
}

func newChunkWriter(f io.WriteCloser, path string, dims int, set writerSettings) (*ChunkWriter, error) {
	if set.batchRows <= 0 || set.rowGroupRows%set.batchRows != 0 {
		// A batch that straddles two row groups is sliced by pqarrow, and
		// arrow-go v18.8 writes a sliced fixed-size list (the embedding)
		// from the wrong offset: the vectors land on the wrong rows.
		f.Close()
		return nil, fmt.Errorf("parquet writer %s: %d rows a batch do not divide %d rows a row group", path, set.batchRows, set.rowGroupRows)
	}
	sc := Schema(dims)
	f = syncCloser{f}
	mem := &recycler{} // the writer's own: its buffers go when it does
	props := parquet.NewWriterProperties(append(set.properties(), parquet.WithAllocator(mem))...)
	fw, err := pqarrow.NewFileWriter(sc, f, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("parquet writer %s: %w", path, err)
	}
	rb := array.NewRecordBuilder(mem, sc)
	w := &ChunkWriter{f: f, fw: fw, rb: rb, b: builders{rb}, set: set, dims: dims}
	w.reserve()
	return w, nil
}

// reserve sizes the builders for a whole batch, so appending a row never
// grows (and copies) a column; with the recycler the buffers are those of
// the previous batch.
func (w *ChunkWriter) reserve() {
	n := w.set.batchRows
	for i := range w.rb.Fields() {
		w.rb.Field(i).Reserve(n)
	}
	emb := w.rb.Field(colEmbedding).(*array.FixedSizeListBuilder)
	emb.ValueBuilder().Reserve(n * w.dims)
}

// Write appends one chunk. Chunks must come in (doc_path, chunk_order) order
// and be valid (closed enums, full embedding); a bad one is a bug upstream
// and fails the run rather than reaching consumers.
func (w *ChunkWriter) Write(c schema.Chunk) (err error) {
	if err := w.check(c); err != nil {
		return err
	}
	defer recoverAs(&err, "parquet write")
	w.append(c)
	w.rows++
	if w.rb.Field(0).Len() >= w.set.batchRows {
		return w.flush()
	}
	return nil
}

func (w *ChunkWriter) check(c schema.Chunk) error {
	switch {
	case !c.Element.Valid():
		return fmt.Errorf("chunk %s: element %q is not in the closed set", c.Key(), c.Element)
	case !c.Kind.Valid():
		return fmt.Errorf("chunk %s: kind %q is not in the closed set", c.Key(), c.Kind)
	case !c.Lang.Valid():
		return fmt.Errorf("chunk %s: lang %q is not in the closed set", c.Key(), c.Lang)
	case len(c.Embedding) != w.dims:
		return fmt.Errorf("chunk %s: embedding has %d dimensions, want %d", c.Key(), len(c.Embedding), w.dims)
	}
	// RowBefore's order, compared in place: this runs for every row.
	if w.rows > 0 && (c.DocPath < w.lastPath || c.DocPath == w.lastPath && c.Order <= w.lastOrder) {
		return fmt.Errorf("chunk %s: out of order", c.Key())
	}
	w.lastPath, w.lastOrder = c.DocPath, c.Order
	return nil
}

func (w *ChunkWriter) flush() error {
	if w.rb.Field(0).Len() == 0 {
		return nil
	}
	rec := w.rb.NewRecordBatch()
	err := w.fw.WriteBuffered(rec) // into the open row group; a new one every rowGroupRows
	rec.Release()                  // before reserve: its buffers are the next batch's
	if err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	w.reserve()
	return nil
}

// Rows is the number of chunks written so far.
func (w *ChunkWriter) Rows() int { return w.rows }

// Close flushes the last row group, writes the footer and syncs the file.
func (w *ChunkWriter) Close() (err error) {
	defer recoverAs(&err, "parquet close")
	defer w.rb.Release()
	if err := w.flush(); err != nil {
		w.fw.Close()
		return err
	}
	if err := w.fw.Close(); err != nil { // syncs and closes f (syncCloser)
		return fmt.Errorf("parquet close: %w", err)
	}
	return nil
}

// syncCloser syncs a file before it is closed: the Parquet writer closes
// its sink itself, and a file can no longer be synced once closed.
type syncCloser struct{ io.WriteCloser }

func (f syncCloser) Close() error {
	if s, ok := f.WriteCloser.(interface{ Sync() error }); ok {
		if err := s.Sync(); err != nil {
			f.WriteCloser.Close()
			return fmt.Errorf("sync: %w", err)
		}
	}
	return f.WriteCloser.Close()
}

// Abort closes the file without completing it; the caller removes it.
func (w *ChunkWriter) Abort() {
	w.rb.Release()
	w.f.Close()
}

// recoverAs turns a panic in the third-party writer into an error at this
// boundary: a malformed batch must fail the run, not crash it mid-publish.
func recoverAs(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: panic: %v", what, r)
	}
}
