package footer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Index is a Parquet file's footer read without its row groups' metadata:
// where each row group's encoding lies in the footer, and its rows. A
// reader opens a window of a few row groups at a time (Window), so the
// metadata it holds is theirs, not the file's: parquet-go's view of a
// whole file holds about 50 KB for each row group of a snapshot, 144 MB
// for the 2,709 of a 100,000-document one.
type Index struct {
	head   format.FileMetaData // without its row groups
	starts []int64             // each row group's first row, and the file's rows last
	spans  []span              // each row group's encoding in the file
	data   int64               // where the footer starts: the file's data end there
	proto  thrift.CompactProtocol
}

// span is where a row group's encoding lies in the file, and its ordinal's
// value (field 7) within it, which a window numbers again: parquet-go
// wants a file's ordinals to be the row groups' places. ordEnd is zero
// when the row group has none.
type span struct{ start, end, ordAt, ordEnd int64 }

// headOnly is FileMetaData without field 4, row_groups, which decoding
// skips.
type headOnly struct {
	Version          int32                  `thrift:"1,required"`
	Schema           []format.SchemaElement `thrift:"2,required"`
	NumRows          int64                  `thrift:"3,required"`
	KeyValueMetadata []format.KeyValue      `thrift:"5,optional"`
	CreatedBy        string                 `thrift:"6,optional"`
	ColumnOrders     []format.ColumnOrder   `thrift:"7,optional"`
}

// ReadIndex reads the footer of the Parquet file r of size bytes: its head
// decoded, its row groups only scanned.
func ReadIndex(r io.ReaderAt, size int64) (*Index, error) {
	var tail [8]byte
	if size < 2*int64(len(magic))+4 {
		return nil, errors.New("parquet footer: a file too short to be Parquet")
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, fmt.Errorf("parquet footer: %w", err)
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != magic || n > size-8-int64(len(magic)) {
		return nil, errors.New("parquet footer: the file does not end with a Parquet footer")
	}
	var head [len(magic)]byte // checked here once, not by every window opened
	if _, err := r.ReadAt(head[:], 0); err != nil || string(head[:]) != magic {
		return nil, errors.New("parquet footer: the file does not start as Parquet")
	}
	x := &Index{data: size - 8 - n, starts: []int64{0}}
	// The footer is read whole, as parquet-go reads it, so that no length
	// in it is believed past its end; it is dropped once scanned.
	b := make([]byte, n)
	if _, err := r.ReadAt(b, x.data); err != nil {
		return nil, fmt.Errorf("parquet footer: %w", err)
	}
	var err error
	if x.head, err = decodeHead(&x.proto, b); err != nil {
		return nil, fmt.Errorf("parquet footer: %w", err)
	}
	s := &scanner{b: b}
	s.rowGroups(func(sp span, rows int64) {
		sp.start, sp.end = x.data+sp.start, x.data+sp.end
		if sp.ordEnd > 0 {
			sp.ordAt, sp.ordEnd = x.data+sp.ordAt, x.data+sp.ordEnd
		}
		x.spans = append(x.spans, sp)
		x.starts = append(x.starts, x.starts[len(x.starts)-1]+rows)
	})
	if s.err != nil {
		return nil, fmt.Errorf("parquet footer: %w", s.err)
	}
	if sum := x.starts[len(x.starts)-1]; sum != x.head.NumRows {
		return nil, fmt.Errorf("parquet footer: the row groups hold %d rows, the file says %d", sum, x.head.NumRows)
	}
	return x, nil
}

// decodeHead decodes the file metadata in footer but its row groups. The
// strings decoded point into the footer (45 MB at 100,000 documents): the
// head is encoded and decoded again, so that it holds bytes of its own.
func decodeHead(proto *thrift.CompactProtocol, footer []byte) (format.FileMetaData, error) {
	var h headOnly
	if err := thrift.NewDecoder(proto.NewReaderFromBytes(footer)).Decode(&h); err != nil {
		return format.FileMetaData{}, err
	}
	b, err := thrift.Marshal(proto, &format.FileMetaData{Version: h.Version, Schema: h.Schema, NumRows: h.NumRows,
		KeyValueMetadata: h.KeyValueMetadata, CreatedBy: h.CreatedBy, ColumnOrders: h.ColumnOrders})
	var m format.FileMetaData
	if err == nil {
		err = thrift.Unmarshal(proto, b, &m)
	}
	return m, err
}

// Groups is how many row groups the file holds.
func (x *Index) Groups() int { return len(x.starts) - 1 }

// Start is row group g's first row; Start(Groups()) is the file's rows.
func (x *Index) Start(g int) int64 { return x.starts[g] }

// GroupOf is the row group that holds row, of the file's.
func (x *Index) GroupOf(row int64) int {
	g, found := slices.BinarySearch(x.starts, row)
	if !found {
		g-- // row lies inside group g-1
	}
	return g
}

// GroupAt is the row group that starts at row, and its rows; false when
// none does.
func (x *Index) GroupAt(row int64) (int, int64, bool) {
	g, ok := slices.BinarySearch(x.starts, row)
	if !ok || g == x.Groups() {
		return 0, 0, false
	}
	return g, x.starts[g+1] - row, true
}

// NumRows is the file's rows.
func (x *Index) NumRows() int64 { return x.head.NumRows }

// Window is a Parquet file of the n row groups of r's from first on: r's
// bytes up to its footer, then a footer of the file's head and those row
// groups only, as this package's Close writes one. Its row groups' offsets
// are r's, so it reads their pages where they are.
func (x *Index) Window(r io.ReaderAt, first, n int) (io.ReaderAt, int64, error) {
	if first < 0 || n < 0 || first+n > x.Groups() {
		return nil, 0, fmt.Errorf("parquet footer: row groups %d–%d of %d", first, first+n, x.Groups())
	}
	prefix, suffix, err := around(&x.proto, &x.head, x.starts[first+n]-x.starts[first])
	if err != nil {
		return nil, 0, err
	}
	tail := append(prefix, 1<<4|byte(thrift.LIST)) // field 4 after field 3
	tail = binary.AppendUvarint(append(tail, 0xf0|byte(thrift.STRUCT)), uint64(n))
	if n > 0 {
		at, end := x.spans[first].start, x.spans[first+n-1].end
		groups := make([]byte, end-at)
		if _, err := r.ReadAt(groups, at); err != nil {
			return nil, 0, fmt.Errorf("parquet footer: %w", err)
		}
		for i, sp := range x.spans[first : first+n] {
			if sp.ordEnd == 0 {
				tail = append(tail, groups[sp.start-at:sp.end-at]...)
				continue
			}
			tail = append(tail, groups[sp.start-at:sp.ordAt-at]...)
			tail = binary.AppendUvarint(tail, uint64(i)<<1) // zigzag of i, a place in the window
			tail = append(tail, groups[sp.ordEnd-at:sp.end-at]...)
		}
	}
	tail = append(tail, suffix...)
	tail = binary.LittleEndian.AppendUint32(tail, uint32(len(tail)))
	tail = append(tail, magic...)
	return window{r, x.data, tail}, x.data + int64(len(tail)), nil
}

// window reads a file's data, then a footer of its own.
type window struct {
	r    io.ReaderAt
	data int64
	tail []byte
}

func (w window) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < w.data {
		k := int(min(int64(len(p)), w.data-off))
		m, err := w.r.ReadAt(p[:k], off)
		if n += m; err != nil || k == len(p) {
			return n, err
		}
		p, off = p[k:], w.data
	}
	if off-w.data >= int64(len(w.tail)) {
		return n, io.EOF
	}
	m := copy(p, w.tail[off-w.data:])
	if n += m; m < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// scanner reads Thrift's compact protocol only to find where values end.
type scanner struct {
	b   []byte
	at  int64 // bytes read
	err error
}

// left is how many bytes are left to read.
func (s *scanner) left() int64 { return int64(len(s.b)) - s.at }

// maxDepth bounds the nesting a footer may hold.
const maxDepth = 32

// rowGroups scans FileMetaData, calling fn with each row group's encoding,
// its offsets bytes into the footer, and its rows (field 3).
func (s *scanner) rowGroups(fn func(sp span, rows int64)) {
	s.fields(0, func(id int16, t byte) {
		if id != 4 || t != byte(thrift.LIST) {
			s.skip(t, 1)
			return
		}
		size, et := s.list()
		if et != byte(thrift.STRUCT) && size > 0 {
			s.fail("row groups are not structs")
			return
		}
		for range size {
			sp, rows := span{start: s.at}, int64(-1)
			s.fields(1, func(id int16, t byte) {
				switch {
				case id == 3 && t == byte(thrift.I64):
					rows = zigzag(s.uvarint())
				case id == 7 && t == byte(thrift.I16):
					sp.ordAt = s.at
					s.uvarint()
					sp.ordEnd = s.at
				default:
					s.skip(t, 2)
				}
			})
			if rows < 0 && s.err == nil {
				s.fail("a row group without its rows")
			}
			if s.err != nil {
				return
			}
			sp.end = s.at
			fn(sp, rows)
		}
	})
}

// fields reads a struct's fields to its stop, calling fn to read each
// value.
func (s *scanner) fields(depth int, fn func(id int16, t byte)) {
	if depth > maxDepth {
		s.fail("nested too deep")
	}
	var id int16
	for s.err == nil {
		b := s.byte()
		if b == byte(thrift.STOP) || s.err != nil {
			return
		}
		if d := int16(b >> 4); d != 0 {
			id += d
		} else {
			id = int16(zigzag(s.uvarint()))
		}
		fn(id, b&0x0f)
	}
}

// skip reads a value of type t.
func (s *scanner) skip(t byte, depth int) {
	switch thrift.Type(t) {
	case thrift.TRUE, thrift.FALSE: // a field's value is its type
	case thrift.I8:
		s.byte()
	case thrift.I16, thrift.I32, thrift.I64:
		s.uvarint()
	case thrift.DOUBLE:
		s.discard(8)
	case thrift.BINARY:
		s.discard(int64(s.uvarint()))
	case thrift.LIST, thrift.SET:
		size, et := s.list()
		for i := int64(0); i < size && s.err == nil; i++ {
			s.item(et, depth+1)
		}
	case thrift.MAP:
		size := int64(s.uvarint())
		if size > s.left() {
			s.fail("a map longer than the footer")
		}
		if size > 0 {
			kv := s.byte()
			for i := int64(0); i < size && s.err == nil; i++ {
				s.item(kv>>4, depth+1)
				s.item(kv&0x0f, depth+1)
			}
		}
	case thrift.STRUCT:
		s.fields(depth+1, func(_ int16, t byte) { s.skip(t, depth+1) })
	default:
		s.fail(fmt.Sprintf("a value of type %d", t))
	}
}

// item reads a container's element: a bool takes a byte there.
func (s *scanner) item(t byte, depth int) {
	if thrift.Type(t) == thrift.TRUE || thrift.Type(t) == thrift.FALSE {
		s.byte()
		return
	}
	s.skip(t, depth)
}

// list reads a list's or set's header: its size and its elements' type.
func (s *scanner) list() (int64, byte) {
	b := s.byte()
	size := int64(b >> 4)
	if size == 15 {
		size = int64(s.uvarint())
	}
	if size > s.left() { // every element takes a byte at least
		s.fail("a list longer than the footer")
		return 0, 0
	}
	return size, b & 0x0f
}

func (s *scanner) byte() byte {
	if s.err != nil {
		return 0
	}
	if s.left() == 0 {
		s.fail("the footer ends inside a value")
		return 0
	}
	s.at++
	return s.b[s.at-1]
}

func (s *scanner) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64 && s.err == nil; shift += 7 {
		b := s.byte()
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
	s.fail("a varint too long")
	return 0
}

func (s *scanner) discard(n int64) {
	if s.err != nil {
		return
	}
	if n < 0 || n > s.left() {
		s.fail("a value longer than the footer")
		return
	}
	s.at += n
}

func (s *scanner) fail(why string) {
	if s.err == nil {
		s.err = errors.New(why)
	}
}

func zigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

// Open is parquet-go's view of the n row groups of r from first on. The
// file's leading magic, which ReadIndex checked, is not read again: a
// reader that reads a block at a time would read a block for it.
func (x *Index) Open(r io.ReaderAt, first, n int, opts ...parquet.FileOption) (*parquet.File, error) {
	w, size, err := x.Window(r, first, n)
	if err != nil {
		return nil, err
	}
	return parquet.OpenFile(w, size, append(slices.Clip(opts), parquet.SkipMagicBytes(true))...)
}

// ViewGroups is how many row groups a View holds the metadata of:
// parquet-go's view of a snapshot's row group takes about 50 KB, and each
// view opened costs its schema read again (16 at a time cost 4% of an edit
// night's CPU).
const ViewGroups = 64

// View is one reader's view of a file's row groups, ViewGroups at a time.
type View struct {
	x     *Index
	r     io.ReaderAt
	opts  []parquet.FileOption
	pf    *parquet.File
	first int
}

// View is a view of r's row groups, opened with opts.
func (x *Index) View(r io.ReaderAt, opts ...parquet.FileOption) *View {
	return &View{x: x, r: r, opts: opts}
}

// Blocks is r, whose footer x is, read a block at a time up to its
// footer: for a View that reads the pages of its row groups in order.
func (x *Index) Blocks(r io.ReaderAt) io.ReaderAt { return &blocks{r: r, end: x.data} }

// At is the file that holds row group g and g's place in it: the view
// moves to g when g lies outside it.
func (v *View) At(g int) (*parquet.File, int, error) {
	if v.pf == nil || g < v.first || g >= v.first+len(v.pf.RowGroups()) {
		pf, err := v.x.Open(v.r, g, min(ViewGroups, v.x.Groups()-g), v.opts...)
		if err != nil {
			return nil, 0, err
		}
		v.pf, v.first = pf, g
	}
	return v.pf, g - v.first, nil
}
