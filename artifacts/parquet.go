package artifacts

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/artifacts/internal/footer"
	"github.com/ocean-safety/ingest/artifacts/internal/groups"
	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
	"github.com/ocean-safety/ingest/schema"
)

const (
	// rowGroupRows is the unit readers load: a row is about 5 KB (a
	// 1024-float vector and its text), so a row group is about 10 MB.
	rowGroupRows = 2048
	// A row group ends at a document one in groupEvery picks (by its
	// path), once it holds groupMin rows: about 270 rows, 1.3 MB with a
	// model's vectors. The ends move with the paths, not with a count from
	// the start, so the row groups an edit does not touch are the previous
	// file's, copied whole (WriteFrom). A 1% edit of 15k documents took 29%
	// of a full run's CPU (34% with 256 and 16) for a file 3% larger (64 and
	// 4: 29%, 9% larger); readers hold a few row groups' metadata at a time.
	groupMin, groupEvery = 128, 8
	// createdByValue is pinned so the bytes do not change with the library version.
	createdByValue = "ingest (parquet-go v0.32)"
)

// ChunkWriter streams chunks into a Parquet file, column by column: a
// batch of rows at a time into the open row group, whose pages, encoded
// and compressed, are all it keeps until the row group is written. The
// row groups' metadata and page indexes, which the file's footer holds, are
// spilled (package footer) as each row group is written. Memory stays flat
// however large the corpus.
type ChunkWriter struct {
	f       io.WriteCloser
	file    *footer.File // what pw writes: the file, one row group at a time
	pw      *parquet.GenericWriter[any]
	cols    []*parquet.ColumnWriter // by leaf (chunkrow.Leaf*)
	batch   chunkrow.Batch          // the values of the rows not yet handed to cols
	emb     []parquet.Value         // a row's vector, its levels set once
	set     writerSettings
	dims    int
	rows    int
	inBatch int
	cut     groups.Cut                   // where the row groups end
	pend    groups.Pending[schema.Chunk] // rows of a previous file's that may be one of its row groups, copied
	copied  int                          // row groups copied
	fillers map[*ChunkFile]*Filler       // the rest of source rows that came without it and are encoded
	out     *digestWriter                // f, its bytes counted and hashed as they are written (Info)
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

func newChunkWriter(f io.WriteCloser, path string, dims int, set writerSettings) (_ *ChunkWriter, err error) {
	defer func() {
		if err != nil { // a bad setting, or a panic recoverAs turned into err
			f.Close()
		}
	}()
	if set.batchRows <= 0 || set.rowGroupRows <= 0 || dims < 0 {
		return nil, fmt.Errorf("parquet writer %s: %d rows a batch, %d a row group, %d dimensions", path, set.batchRows, set.rowGroupRows, dims)
	}
	defer recoverAs(&err, "parquet writer "+path)
	fields, meta := chunkFields(dims), fileMetadata(dims)
	w := &ChunkWriter{f: syncCloser{f}, set: set, dims: dims, cut: groups.Cut{Min: set.groupMin, Max: set.rowGroupRows, Every: set.groupEvery}}
	w.out = &digestWriter{w: w.f, h: sha256.New()}
	var out io.Writer = w.out
	if set.spillFooter {
		w.file = footer.New(w.out, filepath.Dir(path))
		out = w.file
	}
	w.pw = parquet.NewGenericWriter[any](out, set.options(fields)...)
	for _, kv := range meta {
		w.pw.SetKeyValueMetadata(kv[0], kv[1])
	}
	w.pw.SetKeyValueMetadata(ipcschema.Key, ipcschema.Encode(fields, meta))
	if w.cols = w.pw.ColumnWriters(); len(w.cols) != chunkrow.LeafCount {
		return nil, fmt.Errorf("parquet writer %s: %d columns, want %d", path, len(w.cols), chunkrow.LeafCount)
	}
	w.batch = make(chunkrow.Batch, chunkrow.LeafCount)
	w.emb = make([]parquet.Value, dims)
	return w, nil
}

// Write appends one chunk. Chunks must come in (doc_path, chunk_order) order
// and be valid (closed enums, full embedding); a bad one is a bug upstream
// and fails the run rather than reaching consumers.
func (w *ChunkWriter) Write(c schema.Chunk) error {
	if err := w.settle(c.DocPath); err != nil {
		return err
	}
	return w.write(c)
}

// WriteFrom appends rows that are src's rows from its row first on, as src
// holds them (a document taken whole from the previous snapshot, which
// this build wrote). Where they make up one of src's row groups and this
// writer ends its own row group where src ended it, the group's bytes are
// copied instead of encoded again: the file is the one Write would make.
func (w *ChunkWriter) WriteFrom(rows []schema.Chunk, src *ChunkFile, first int64) error {
	if len(rows) == 0 {
		return nil
	}
	if err := w.settle(rows[0].DocPath); err != nil || w.pend.Add(src, first, rows) {
		return err
	}
	if err := w.flushPending(); err != nil {
		return err
	}
	if w.file != nil && (w.cut.Rows() == 0 || w.cut.Before(rows[0].DocPath)) {
		if err := w.endGroup(); err != nil {
			return err
		}
		if w.file.RowGroups() > 0 && w.pend.Start(src, first, rows) { // the first is written: the file's head is the writer's
			return nil
		}
	}
	if err := w.withVectors(src, first, rows); err != nil {
		return err
	}
	for _, c := range rows {
		if err := w.write(c); err != nil {
			return err
		}
	}
	return nil
}

// withVectors reads what rows, src's from its row first on, came without
// (CursorWithoutVectors, CursorLean), their vectors at the least: they are
// encoded, not copied. A row read whole already (a document the run meant
// to make again, then took whole) is left as it is.
func (w *ChunkWriter) withVectors(src *ChunkFile, first int64, rows []schema.Chunk) error {
	if src.lacks == 0 {
		return nil
	}
	for i := 0; i < len(rows); {
		if len(rows[i].Embedding) > 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(rows) && len(rows[j].Embedding) == 0 {
			j++
		}
		f, ok := w.fillers[src]
		if !ok {
			if w.fillers == nil {
				w.fillers = map[*ChunkFile]*Filler{}
			}
			f = src.Filler()
			w.fillers[src] = f
		}
		if err := f.Fill(first+int64(i), rows[i:j]); err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		i = j
	}
	return nil
}

// settle decides the rows held before a row of the document at path (""
// at the end): their row group is copied when they make it up whole and
// this writer would end a group of them there; otherwise they are written.
func (w *ChunkWriter) settle(path string) error {
	src, g, whole := w.pend.Whole()
	if !w.pend.Held() || !whole {
		return nil // more may come; a row that is not src's writes them (flushPending)
	}
	rows := w.pend.Rows()
	held := groups.Cut{Min: w.cut.Min, Max: w.cut.Max, Every: w.cut.Every}
	held.Set(len(rows), rows[len(rows)-1].DocPath)
	if path != "" && !held.Full() && !held.Before(path) {
		return w.flushPending()
	}
	if err := w.checkCopy(src.(*ChunkFile), rows[0]); err != nil {
		return err
	}
	if err := w.file.CopyRowGroup(src.(*ChunkFile).copies, g); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	last := rows[len(rows)-1]
	w.rows, w.lastPath, w.lastOrder = w.rows+len(rows), last.DocPath, last.Order
	w.pend.Take()
	w.copied++
	return nil
}

// Copied is how many row groups were copied (WriteFrom), not encoded.
func (w *ChunkWriter) Copied() int { return w.copied }

// flushPending writes the rows held.
func (w *ChunkWriter) flushPending() error {
	if !w.pend.Held() {
		return nil
	}
	src, first := w.pend.From()
	rows := w.pend.Take()
	if err := w.withVectors(src.(*ChunkFile), first, rows); err != nil {
		return err
	}
	for _, c := range rows {
		if err := w.write(c); err != nil {
			return err
		}
	}
	return nil
}

// write encodes one chunk into the open row group, ending the group first
// where the cut says.
func (w *ChunkWriter) write(c schema.Chunk) (err error) {
	if err := w.flushPending(); err != nil {
		return err
	}
	if err := w.check(c); err != nil {
		return err
	}
	if w.cut.Rows() > 0 && w.cut.Before(c.DocPath) {
		if err := w.endGroup(); err != nil {
			return err
		}
	}
	defer recoverAs(&err, "parquet write")
	w.batch.Add(c)
	if err := w.writeVector(c.Embedding); err != nil {
		return err
	}
	w.rows++
	w.inBatch++
	w.cut.Add(c.DocPath)
	if w.cut.Full() {
		return w.endGroup()
	}
	if w.inBatch == w.set.batchRows {
		return w.flush()
	}
	return nil
}

// endGroup ends the open row group, if it holds a row.
func (w *ChunkWriter) endGroup() error {
	if w.cut.Rows() == 0 {
		return nil
	}
	if err := w.flush(); err != nil {
		return err
	}
	w.cut.End()
	if w.file != nil {
		return w.endRowGroup()
	}
	if err := w.pw.Flush(); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	return nil
}

// endRowGroup writes the open row group as a file of its own, whose page
// index and footer w.file keeps, and readies the writer for the next. The
// writer is Reset, not made anew: its column writers carry state from row
// group to row group (a page's statistics buffers, empty rather than nil
// once used) that shows in the bytes, as it does in one writer's file.
func (w *ChunkWriter) endRowGroup() error {
	if err := w.pw.Flush(); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	w.file.Hold()
	if err := w.pw.Close(); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	m := w.pw.File().Metadata()
	if err := w.file.EndRowGroup(m); err != nil {
		return err
	}
	// Reset clears in place the row group metadata the writer keeps, whose
	// column paths and statistics its column writers share: it keeps none.
	m.RowGroups[0].Columns = nil
	w.pw.Reset(w.file)
	return nil
}

func (w *ChunkWriter) closeFillers() {
	for _, f := range w.fillers {
		f.Close()
	}
	w.fillers = nil
}

// checkCopy checks the first row of a row group copied from src, whose
// rows may come without their vectors: src's vectors are as wide as the
// file's then.
func (w *ChunkWriter) checkCopy(src *ChunkFile, c schema.Chunk) error {
	if len(c.Embedding) > 0 || w.dims == 0 {
		return w.check(c)
	}
	if src.Dims != w.dims {
		return fmt.Errorf("chunk %s: %s holds %d-dimensional embeddings, want %d", c.Key(), src.path, src.Dims, w.dims)
	}
	return w.checkRow(c)
}

// check checks a row written: its vector as wide as the file's, and checkRow.
func (w *ChunkWriter) check(c schema.Chunk) error {
	if len(c.Embedding) != w.dims {
		return fmt.Errorf("chunk %s: embedding has %d dimensions, want %d", c.Key(), len(c.Embedding), w.dims)
	}
	return w.checkRow(c)
}

// checkRow checks a row's closed enums and that it comes after the last.
func (w *ChunkWriter) checkRow(c schema.Chunk) error {
	switch {
	case !c.Element.Valid():
		return fmt.Errorf("chunk %s: element %q is not in the closed set", c.Key(), c.Element)
	case !c.Kind.Valid():
		return fmt.Errorf("chunk %s: kind %q is not in the closed set", c.Key(), c.Kind)
	case !c.Lang.Valid():
		return fmt.Errorf("chunk %s: lang %q is not in the closed set", c.Key(), c.Lang)
	}
	// RowBefore's order, compared in place: this runs for every row.
	if w.rows > 0 && (c.DocPath < w.lastPath || c.DocPath == w.lastPath && c.Order <= w.lastOrder) {
		return fmt.Errorf("chunk %s: out of order", c.Key())
	}
	w.lastPath, w.lastOrder = c.DocPath, c.Order
	return nil
}

// writeVector hands a row's vector to its column at once: it is most of a
// row's bytes, so its pages are cut at the page size, not at a batch.
func (w *ChunkWriter) writeVector(v []float32) error {
	row := w.emb
	if len(v) == 0 {
		row = []parquet.Value{parquet.NullValue().Level(0, 0, chunkrow.LeafEmbedding)} // an empty list
	}
	for i, x := range v {
		// The setters inline where Level does not: a quarter of the
		// writer's time went to Level on the vectors.
		row[i] = parquet.FloatValue(x)
		row[i].SetRepetitionLevel(min(i, 1))
		row[i].SetDefinitionLevel(1)
		row[i].SetColumnIndex(chunkrow.LeafEmbedding)
	}
	if _, err := w.cols[chunkrow.LeafEmbedding].WriteRowValues(row); err != nil {
		return fmt.Errorf("parquet write: %w", err)
	}
	return nil
}

// flush hands the batch's rows to the columns, which cut a page when they
// hold the page size.
func (w *ChunkWriter) flush() error {
	for i, vs := range w.batch {
		if len(vs) == 0 {
			continue
		}
		if _, err := w.cols[i].WriteRowValues(vs); err != nil {
			return fmt.Errorf("parquet write: %w", err)
		}
		clear(vs) // the values point into the batch's strings: let them go
		w.batch[i] = vs[:0]
	}
	w.inBatch = 0
	return nil
}

// Info is the file's size and SHA-256, from the bytes the writer wrote:
// after Close, the file's, which need not be read again to be described.
func (w *ChunkWriter) Info() FileInfo {
	return FileInfo{Bytes: w.out.n, SHA256: hex.EncodeToString(w.out.h.Sum(nil)), Rows: w.rows}
}

// digestWriter counts and hashes what it writes through.
type digestWriter struct {
	w io.Writer
	h hash.Hash
	n int64
}

func (d *digestWriter) Write(p []byte) (int, error) {
	n, err := d.w.Write(p)
	d.h.Write(p[:n])
	d.n += int64(n)
	return n, err
}

// Rows is the number of chunks written so far.
func (w *ChunkWriter) Rows() int { return w.rows }

// Close flushes the last row group, writes the page index and the footer,
// then syncs and closes the file.
func (w *ChunkWriter) Close() (err error) {
	defer recoverAs(&err, "parquet close")
	defer w.closeFillers()
	err = w.settle("")
	if err == nil {
		err = w.flushPending()
	}
	if err == nil {
		err = w.flush()
	}
	switch {
	case err != nil:
	case w.file != nil && w.cut.Rows() > 0:
		w.cut.End()
		err = w.endRowGroup()
	case w.file == nil || w.file.RowGroups() == 0: // the writer writes its footer itself (with no row, an empty file)
		if err = w.pw.Close(); err != nil {
			err = fmt.Errorf("parquet close: %w", err)
		}
	}
	if err == nil && w.file != nil {
		err = w.file.Close()
	}
	if err != nil {
		w.Abort()
		return err
	}
	if err := w.f.Close(); err != nil { // syncs first (syncCloser)
		return fmt.Errorf("parquet close: %w", err)
	}
	return nil
}

// syncCloser syncs a file before it is closed: a file can no longer be
// synced once closed.
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
	w.closeFillers()
	if w.file != nil {
		w.file.Abort()
	}
	w.f.Close()
}

// recoverAs turns a panic in the third-party writer into an error at this
// boundary: a malformed batch must fail the run, not crash it mid-publish.
func recoverAs(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: panic: %v", what, r)
	}
}
