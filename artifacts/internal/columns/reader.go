package columns

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// Reader reads a column chunk of a row group a row at a time, a page in
// memory: a row's levels and its values, whichever pages they span (a
// version 1 page, as arrow-go cut them, may end inside a row).
type Reader struct {
	path     string
	pages    parquet.Pages
	page     parquet.Page
	kind     parquet.Kind
	repeated bool
	maxDef   byte

	// The page being read: its levels (nil when the column has none) and
	// its values, non-null ones only.
	rep, def []byte
	levels   int // in the page
	next     int // the next level
	vals     columnValues
	v        int      // the next value
	dict     []string // a dictionary page's values, by index
	dictOf   parquet.Dictionary
}

// columnValues are a page's values: one of the slices, by kind.
type columnValues struct {
	bytes []byte
	offs  []uint32 // of each value in bytes, and its end
	index []int32  // into the dictionary
	bits  []byte   // booleans, a bit each, from bit 0 (pages are read whole, never sliced)
	f32   []float32
	f64   []float64
	i32   []int32
	i64   []int64
	n     int
}

// Row is a column's part of a row: its levels and its values, the non-null
// ones, in the slice of the column's kind. A column without levels has its
// greatest definition level (0) for each value.
type Row struct {
	Rep, Def []byte
	Strs     []string
	Bools    []bool
	F32      []float32
	F64      []float64
	I32      []int32
	I64      []int64
}

// Reset empties r, keeping its memory.
func (r *Row) Reset() {
	r.Rep, r.Def, r.Strs, r.Bools = r.Rep[:0], r.Def[:0], r.Strs[:0], r.Bools[:0]
	r.F32, r.F64, r.I32, r.I64 = r.F32[:0], r.F64[:0], r.I32[:0], r.I64[:0]
}

// NewReader reads the column chunk of pages, of values of kind, whose path
// errors name.
func NewReader(path string, pages parquet.Pages, kind parquet.Kind, maxRep, maxDef int) *Reader {
	return &Reader{path: path, pages: pages, kind: kind, repeated: maxRep > 0, maxDef: byte(maxDef)}
}

var errShortColumn = errors.New("holds fewer rows than its row group")

// Read reads the next row into out.
func (c *Reader) Read(out *Row) error {
	out.Reset()
	for took := false; ; {
		if c.next == c.levels {
			err := c.nextPage()
			switch {
			case err == io.EOF && took:
				return nil
			case err == io.EOF:
				return fmt.Errorf("column %s %w", c.path, errShortColumn)
			case err != nil:
				return fmt.Errorf("column %s: %w", c.path, err)
			}
			continue
		}
		if took && (!c.repeated || c.rep[c.next] == 0) {
			return nil // the next row's
		}
		end := c.next + 1
		if c.repeated {
			if k := bytes.IndexByte(c.rep[end:c.levels], 0); k >= 0 {
				end += k
			} else {
				end = c.levels
			}
		}
		if err := c.take(out, c.next, end); err != nil {
			return fmt.Errorf("column %s: %w", c.path, err)
		}
		c.next, took = end, true
		if !c.repeated {
			return nil
		}
	}
}

// take moves levels i to j of the page, and their values, to out.
func (c *Reader) take(out *Row, i, j int) error {
	n := j - i
	if c.def == nil {
		for range n {
			out.Def = append(out.Def, c.maxDef)
		}
	} else {
		out.Def = append(out.Def, c.def[i:j]...)
		n = bytes.Count(c.def[i:j], []byte{c.maxDef})
	}
	if c.repeated {
		out.Rep = append(out.Rep, c.rep[i:j]...)
	}
	if c.v+n > c.vals.n {
		return fmt.Errorf("a page holds %d values, its levels %d or more", c.vals.n, c.v+n)
	}
	v, w := c.v, c.v+n
	c.v = w
	switch {
	case c.vals.index != nil:
		for _, k := range c.vals.index[v:w] {
			if k < 0 || int(k) >= len(c.dict) {
				return fmt.Errorf("dictionary index %d of %d values", k, len(c.dict))
			}
			out.Strs = append(out.Strs, c.dict[k])
		}
	case c.kind == parquet.ByteArray:
		for k := v; k < w; k++ {
			s, e := c.vals.offs[k], c.vals.offs[k+1]
			if s > e || int(e) > len(c.vals.bytes) {
				return fmt.Errorf("value %d runs from byte %d to %d of %d", k, s, e, len(c.vals.bytes))
			}
			out.Strs = append(out.Strs, string(c.vals.bytes[s:e]))
		}
	case c.kind == parquet.Boolean:
		for k := v; k < w; k++ {
			out.Bools = append(out.Bools, c.vals.bits[k/8]>>(k%8)&1 != 0)
		}
	case c.kind == parquet.Float:
		out.F32 = append(out.F32, c.vals.f32[v:w]...)
	case c.kind == parquet.Double:
		out.F64 = append(out.F64, c.vals.f64[v:w]...)
	case c.kind == parquet.Int32:
		out.I32 = append(out.I32, c.vals.i32[v:w]...)
	case c.kind == parquet.Int64:
		out.I64 = append(out.I64, c.vals.i64[v:w]...)
	}
	return nil
}

// nextPage moves to the column's next page, io.EOF after the last.
func (c *Reader) nextPage() error {
	c.release()
	p, err := c.pages.ReadPage()
	if err != nil {
		return err
	}
	c.page = p
	c.rep, c.def = p.RepetitionLevels(), p.DefinitionLevels()
	c.levels, c.next, c.v = int(p.NumValues()), 0, 0
	if c.repeated && len(c.rep) != c.levels || c.maxDef > 0 && len(c.def) != c.levels {
		return fmt.Errorf("a page of %d values has %d repetition and %d definition levels", c.levels, len(c.rep), len(c.def))
	}
	if c.maxDef == 0 {
		c.def = nil
	}
	c.vals = columnValues{}
	data := p.Data()
	if d := p.Dictionary(); d != nil {
		if d != c.dictOf { // once a row group: a column chunk has one dictionary
			c.dictOf, c.dict = d, make([]string, d.Len())
			for i := range c.dict {
				c.dict[i] = string(d.Index(int32(i)).ByteArray())
			}
		}
		c.vals.index = data.Int32()
		c.vals.n = len(c.vals.index)
		return nil
	}
	switch c.kind {
	case parquet.ByteArray:
		c.vals.bytes, c.vals.offs = data.ByteArray()
		c.vals.n = max(len(c.vals.offs)-1, 0)
	case parquet.Boolean:
		c.vals.bits = data.Boolean()
		c.vals.n = int(p.NumValues() - p.NumNulls())
		if len(c.vals.bits)*8 < c.vals.n {
			return fmt.Errorf("a page of %d booleans holds %d bytes", c.vals.n, len(c.vals.bits))
		}
	case parquet.Float:
		c.vals.f32 = data.Float()
		c.vals.n = len(c.vals.f32)
	case parquet.Double:
		c.vals.f64 = data.Double()
		c.vals.n = len(c.vals.f64)
	case parquet.Int32:
		c.vals.i32 = data.Int32()
		c.vals.n = len(c.vals.i32)
	case parquet.Int64:
		c.vals.i64 = data.Int64()
		c.vals.n = len(c.vals.i64)
	}
	return nil
}

// release hands the page's buffers back to the library: every value
// taken from it has been copied.
func (c *Reader) release() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
}

// Close releases the page and the column's reader.
func (c *Reader) Close() {
	c.release()
	c.pages.Close()
}
