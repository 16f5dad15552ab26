package footer

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// magic opens and closes a Parquet file; every row group's own file opens
// with it, the whole file once.
const magic = "PAR1"

// maxRowGroups is the most a file holds: a row group's ordinal is an int16.
const maxRowGroups = math.MaxInt16

// File is the io.Writer a Parquet writer writes to, one row group a file:
// for each row group, the writer's Flush writes its data (passed on to
// out), Hold is called, the writer's Close writes the page index and footer
// of a one-row-group file (held), EndRowGroup is given that footer's
// metadata, and the writer is Reset to write the next. Close writes the
// whole file's page index and footer. A File is used by one goroutine.
type File struct {
	out     io.Writer
	n       int64  // bytes of the whole file written to out
	seg     int64  // bytes the writer wrote of the current row group's own file
	hold    bool   // the writer's Close is writing what follows the row group's data
	held    []byte // what it wrote since Hold
	rows    int64
	count   int                  // row groups ended
	head    *format.FileMetaData // the first row group's file's: schema, key-value metadata, created_by, column orders
	spill   spill
	proto   thrift.CompactProtocol
	copyBuf []byte // a row group copied passes through it
}

// New returns a File writing to out, its spill (past SpillMemory) in a
// temporary file in dir.
func New(out io.Writer, dir string) *File {
	return &File{out: out, spill: spill{dir: dir}}
}

// Write takes what the Parquet writer writes: a row group's data goes on to
// the file (without the magic a later row group's own file opens with);
// after Hold, it is kept for EndRowGroup.
func (f *File) Write(p []byte) (int, error) {
	n := len(p)
	if f.count > 0 && f.seg < int64(len(magic)) {
		k := min(len(p), len(magic)-int(f.seg))
		if string(p[:k]) != magic[f.seg:int(f.seg)+k] {
			return 0, errors.New("parquet footer: a row group's file does not open with " + magic)
		}
		p, f.seg = p[k:], f.seg+int64(k)
	}
	f.seg += int64(len(p))
	if f.hold {
		f.held = append(f.held, p...)
		return n, nil
	}
	w, err := f.out.Write(p)
	f.n += int64(w)
	if err != nil {
		return n - len(p) + w, err
	}
	return n, nil
}

// Hold marks the end of what the writer's Flush wrote: what it writes next,
// until EndRowGroup, is held (the rest of the row group's data, which its
// buffer had not passed on yet, and the page index and footer of the row
// group's own file).
func (f *File) Hold() { f.hold = true }

// RowGroups is how many row groups have ended.
func (f *File) RowGroups() int { return f.count }

// EndRowGroup ends a row group given its file's metadata, as the writer's
// Close left it: the held data before the page index goes on to the file,
// and the row group's column indexes, offset indexes and metadata, their
// offsets moved to where the data sits in the whole file, are spilled.
func (f *File) EndRowGroup(m *format.FileMetaData) error {
	if !f.hold || len(m.RowGroups) != 1 {
		return fmt.Errorf("parquet footer: %d row groups ended, want one after Hold", len(m.RowGroups))
	}
	if f.count == maxRowGroups {
		return fmt.Errorf("parquet footer: more than %d row groups", maxRowGroups)
	}
	held := f.seg - int64(len(f.held)) // where the held bytes start, in the row group's file
	shift := f.n - held                // from the row group's file to the whole file
	rg := m.RowGroups[0]
	end := f.seg // the data's end: the page index comes first after it
	for _, c := range rg.Columns {
		end = min(end, c.ColumnIndexOffset, c.OffsetIndexOffset)
	}
	if end < held {
		return fmt.Errorf("parquet footer: the page index at %d is before the held bytes at %d", end, held)
	}
	w, err := f.out.Write(f.held[:end-held])
	if f.n += int64(w); err != nil {
		return err
	}
	tail := f.held[end-held:]
	at := func(off int64, n int32) ([]byte, error) {
		if off < end || n <= 0 || off-end+int64(n) > int64(len(tail)) {
			return nil, fmt.Errorf("parquet footer: a page index entry at %d, %d bytes, is not in the %d bytes after the data", off, n, len(tail))
		}
		return tail[off-end : off-end+int64(n)], nil
	}
	if err := f.spillRowGroup(rg, shift, at); err != nil {
		return err
	}
	if f.count == 0 {
		if err := f.keepHead(m); err != nil {
			return err
		}
	}
	f.count++
	f.seg, f.held, f.hold = 0, f.held[:0], false
	return nil
}

// moveOffsetIndex is an encoded offset index with its pages moved by shift.
func (f *File) moveOffsetIndex(b []byte, shift int64) ([]byte, error) {
	var oi format.OffsetIndex
	if err := thrift.Unmarshal(&f.proto, b, &oi); err != nil {
		return nil, fmt.Errorf("parquet footer: offset index: %w", err)
	}
	for i := range oi.PageLocations {
		oi.PageLocations[i].Offset += shift
	}
	return thrift.Marshal(&f.proto, &oi)
}

// move moves a column chunk's offsets into the data by shift, and clears
// those into the page index, which Close sets.
func move(c *format.ColumnChunk, shift int64) {
	m := &c.MetaData
	m.DataPageOffset += shift
	for _, off := range []*int64{&m.DictionaryPageOffset, &m.IndexPageOffset, &m.BloomFilterOffset} {
		if *off != 0 {
			*off += shift
		}
	}
	c.ColumnIndexOffset, c.ColumnIndexLength, c.OffsetIndexOffset, c.OffsetIndexLength = 0, 0, 0, 0
}

// keepHead keeps what every row group's file says alike, for the footer.
func (f *File) keepHead(m *format.FileMetaData) error {
	if m.EncryptionAlgorithm.Value != nil || m.FooterSigningKeyMetadata != nil {
		return errors.New("parquet footer: an encrypted file")
	}
	f.head = &format.FileMetaData{Version: m.Version, Schema: slices.Clone(m.Schema), KeyValueMetadata: slices.Clone(m.KeyValueMetadata),
		CreatedBy: m.CreatedBy, ColumnOrders: slices.Clone(m.ColumnOrders)}
	return nil
}

// Abort drops the spill.
func (f *File) Abort() { f.spill.remove() }

// CopyRowGroup appends a row group of another file this package wrote,
// already encoded: group g of the file src views. Its data goes on to the
// file as it is, its column and offset indexes are read from src's page
// index, and its offsets are moved to where the data now sits, so the file
// has the bytes it would have had if the writer had written the same rows
// as a row group there. Call it between row groups (not after Hold).
func (f *File) CopyRowGroup(src *View, g int) error {
	if f.hold || f.seg != 0 {
		return errors.New("parquet footer: a row group copied into an open one")
	}
	// Not as the first: the file's head (magic, schema, key-value
	// metadata) is the writer's, which src's parsed metadata may not
	// keep in order.
	if f.count == 0 || f.count == maxRowGroups || g < 0 || g >= src.x.Groups() {
		return fmt.Errorf("parquet footer: row group %d of %d copied as row group %d", g, src.x.Groups(), f.count)
	}
	pf, i, err := src.At(g)
	if err != nil {
		return fmt.Errorf("parquet footer: copy row group %d: %w", g, err)
	}
	rg := pf.Metadata().RowGroups[i]
	start, end := dataRange(rg)
	if start < int64(len(magic)) || end < start {
		return fmt.Errorf("parquet footer: row group %d's data at %d–%d", g, start, end)
	}
	shift := f.n - start
	if f.copyBuf == nil {
		f.copyBuf = make([]byte, 1<<20)
	}
	w, err := io.CopyBuffer(f.out, io.NewSectionReader(src.r, start, end-start), f.copyBuf)
	if f.n += w; err == nil && w != end-start {
		err = io.ErrUnexpectedEOF // src ends before the data its metadata names
	}
	if err != nil {
		return fmt.Errorf("parquet footer: copy row group %d: %w", g, err)
	}
	if err := f.spillRowGroup(rg, shift, groupIndex(src.r, rg)); err != nil {
		return err
	}
	f.count++
	return nil
}

// spillRowGroup spills row group rg, whose data now sits shift bytes from
// where its offsets say, with each column's page index entries as index
// reads them (the offset index's pages moved), and counts its rows; the
// caller counts the row group.
func (f *File) spillRowGroup(rg format.RowGroup, shift int64, index func(off int64, n int32) ([]byte, error)) error {
	rg.Columns = slices.Clone(rg.Columns)
	var rec record
	for i := range rg.Columns {
		c := &rg.Columns[i]
		ci, err := index(c.ColumnIndexOffset, c.ColumnIndexLength)
		if err != nil {
			return err
		}
		oi, err := index(c.OffsetIndexOffset, c.OffsetIndexLength)
		if err != nil {
			return err
		}
		if oi, err = f.moveOffsetIndex(oi, shift); err != nil {
			return err
		}
		rec.ci, rec.oi = append(rec.ci, ci), append(rec.oi, oi)
		move(c, shift)
	}
	rg.FileOffset += shift
	rg.Ordinal = int16(f.count)
	var err error
	if rec.rg, err = thrift.Marshal(&f.proto, &rg); err != nil {
		return fmt.Errorf("parquet footer: row group %d: %w", f.count, err)
	}
	if err := f.spill.add(rec); err != nil {
		return err
	}
	f.rows += rg.NumRows
	return nil
}

// dataRange is where a row group's column chunks lie: from the first
// page of its first column to the end of its last.
func dataRange(rg format.RowGroup) (start, end int64) {
	start = math.MaxInt64
	for _, c := range rg.Columns {
		m := c.MetaData
		first := m.DataPageOffset
		if m.DictionaryPageOffset != 0 {
			first = min(first, m.DictionaryPageOffset)
		}
		start, end = min(start, first), max(end, first+m.TotalCompressedSize)
	}
	return start, end
}

// maxIndexSpan bounds what groupIndex reads at once.
const maxIndexSpan = 4 << 20

// groupIndex reads row group rg's page index entries from src: its column
// indexes in one read and its offset indexes in another where each lie
// together, as this package writes them, else an entry at a time.
func groupIndex(src io.ReaderAt, rg format.RowGroup) func(off int64, n int32) ([]byte, error) {
	type span struct {
		off int64
		b   []byte
	}
	var spans [2]span
	for k, entry := range []func(c *format.ColumnChunk) (int64, int32){
		func(c *format.ColumnChunk) (int64, int32) { return c.ColumnIndexOffset, c.ColumnIndexLength },
		func(c *format.ColumnChunk) (int64, int32) { return c.OffsetIndexOffset, c.OffsetIndexLength },
	} {
		lo, hi := int64(math.MaxInt64), int64(0)
		for i := range rg.Columns {
			off, n := entry(&rg.Columns[i])
			lo, hi = min(lo, off), max(hi, off+int64(n))
		}
		if lo > 0 && hi > lo && hi-lo <= maxIndexSpan {
			b := make([]byte, hi-lo)
			if _, err := src.ReadAt(b, lo); err == nil {
				spans[k] = span{lo, b}
			}
		}
	}
	return func(off int64, n int32) ([]byte, error) {
		for _, s := range spans {
			if n > 0 && off >= s.off && off+int64(n) <= s.off+int64(len(s.b)) {
				at := off - s.off
				return s.b[at : at+int64(n) : at+int64(n)], nil
			}
		}
		return readAt(src, off, n) // an entry elsewhere, or a read that failed: its own error
	}
}

// readAt reads n bytes of src at off: a page index entry.
func readAt(src io.ReaderAt, off int64, n int32) ([]byte, error) {
	if off <= 0 || n <= 0 {
		return nil, fmt.Errorf("parquet footer: no page index entry (%d bytes at %d)", n, off)
	}
	b := make([]byte, n)
	if _, err := src.ReadAt(b, off); err != nil {
		return nil, fmt.Errorf("parquet footer: page index entry at %d: %w", off, err)
	}
	return b, nil
}
