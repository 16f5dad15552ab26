package artifacts

import (
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ocean-safety/ingest/schema"
)

const (
	// rowGroupRows bounds the writer's memory: a row is about 5 KB (a
	// 1024-float vector and its text), so a row group is about 10 MB.
	rowGroupRows = 2048
	// createdBy is pinned so the bytes do not change with the library version.
	createdBy = "ingest (arrow-go parquet v18)"
)

// ChunkWriter streams chunks into a Parquet file, one row group at a time,
// so memory stays flat however large the corpus.
type ChunkWriter struct {
	f    io.WriteCloser
	fw   *pqarrow.FileWriter
	rb   *array.RecordBuilder
	b    builders
	set  writerSettings
	dims int
	rows int
	last string // key of the last row, to check the order
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
	sc := Schema(dims)
	f = syncCloser{f}
	fw, err := pqarrow.NewFileWriter(sc, f, parquet.NewWriterProperties(set.properties()...), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("parquet writer %s: %w", path, err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	return &ChunkWriter{f: f, fw: fw, rb: rb, b: builders{rb}, set: set, dims: dims}, nil
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
	if w.rb.Field(0).Len() >= w.set.rowGroupRows {
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
	key := c.DocPath + "\x00" + fmt.Sprintf("%09d", c.Order)
	if key <= w.last && w.rows > 0 {
		return fmt.Errorf("chunk %s: out of order", c.Key())
	}
	w.last = key
	return nil
}

func (w *ChunkWriter) flush() error {
	if w.rb.Field(0).Len() == 0 {
		return nil
	}
	rec := w.rb.NewRecordBatch()
	defer rec.Release()
	if err := w.fw.Write(rec); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
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
