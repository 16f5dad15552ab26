package footer

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// Close writes the whole file's page index (every row group's column
// indexes, then every offset index) and its footer, as parquet-go's Close
// writes them, then drops the spill. With no row group ended, the writer's
// own Close wrote the whole (empty) file through f, and Close writes
// nothing.
func (f *File) Close() error {
	defer f.spill.remove()
	if f.hold {
		return errors.New("parquet footer: closed with a row group not ended")
	}
	if f.count == 0 {
		return nil
	}
	cw := &counter{w: f.out, n: f.n}
	bw := bufio.NewWriterSize(cw, 64<<10)
	start := f.n // the page index's offset
	var ciBytes int64
	err := f.spill.each(func(r record) error {
		for _, b := range r.ci {
			bw.Write(b)
			ciBytes += int64(len(b))
		}
		return nil
	})
	if err == nil {
		err = f.spill.each(func(r record) error {
			for _, b := range r.oi {
				bw.Write(b)
			}
			return nil
		})
	}
	if err != nil {
		return err
	}
	if err := f.writeFooter(bw, cw, start, start+ciBytes); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("parquet footer: %w", err)
	}
	f.n = cw.n
	return nil
}

// writeFooter writes the file's metadata, its length and the magic: the
// metadata parquet-go's Close encodes, its row groups taken from the spill
// one at a time, each given where its indexes are (the column indexes from
// ci, the offset indexes from oi).
func (f *File) writeFooter(bw *bufio.Writer, cw *counter, ci, oi int64) error {
	prefix, suffix, err := around(&f.proto, f.head, f.rows)
	if err != nil {
		return err
	}
	pos := func() int64 { return cw.n + int64(bw.Buffered()) }
	at := pos()
	bw.Write(prefix)
	w := f.proto.NewWriter(bw)
	enc := thrift.NewEncoder(w)
	// Field 4, row_groups, follows field 3: its id as a delta of 1.
	if err := errors.Join(w.WriteField(thrift.Field{ID: 1, Type: thrift.LIST}), w.WriteList(thrift.List{Size: int32(f.count), Type: thrift.STRUCT})); err != nil {
		return fmt.Errorf("parquet footer: %w", err)
	}
	err = f.spill.each(func(r record) error {
		var rg format.RowGroup
		if err := thrift.Unmarshal(&f.proto, r.rg, &rg); err != nil {
			return fmt.Errorf("parquet footer: row group: %w", err)
		}
		if len(rg.Columns) != len(r.ci) {
			return fmt.Errorf("parquet footer: a row group of %d columns spilled %d indexes", len(rg.Columns), len(r.ci))
		}
		for i := range rg.Columns {
			c := &rg.Columns[i]
			c.ColumnIndexOffset, c.ColumnIndexLength = ci, int32(len(r.ci[i]))
			c.OffsetIndexOffset, c.OffsetIndexLength = oi, int32(len(r.oi[i]))
			ci, oi = ci+int64(len(r.ci[i])), oi+int64(len(r.oi[i]))
		}
		if err := enc.Encode(&rg); err != nil {
			return fmt.Errorf("parquet footer: row group: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw.Write(suffix)
	length := pos() - at
	var tail [8]byte
	binary.LittleEndian.PutUint32(tail[:4], uint32(length))
	copy(tail[4:], magic)
	_, err = bw.Write(tail[:])
	return err
}

// around is the file metadata's encoding around its row groups, for a
// file of h's head and rows rows: what comes before field 4 (version,
// schema, num_rows) and what follows its list (key-value metadata,
// created_by, column orders, the stop). They are cut from two encodings by
// the writer's own encoder, one with no field after an empty row group list
// and one with every field.
func around(proto *thrift.CompactProtocol, h *format.FileMetaData, rows int64) (prefix, suffix []byte, err error) {
	short := format.FileMetaData{Version: h.Version, Schema: h.Schema, NumRows: rows}
	full := short
	full.KeyValueMetadata, full.CreatedBy, full.ColumnOrders = h.KeyValueMetadata, h.CreatedBy, h.ColumnOrders
	a, err := thrift.Marshal(proto, &short)
	if err != nil {
		return nil, nil, fmt.Errorf("parquet footer: %w", err)
	}
	b, err := thrift.Marshal(proto, &full)
	if err != nil {
		return nil, nil, fmt.Errorf("parquet footer: %w", err)
	}
	// a ends with field 4's header (a delta of 1, a list), an empty list of
	// structs, and the stop; b holds a's bytes up to its stop.
	emptyRowGroups := []byte{1<<4 | byte(thrift.LIST), byte(thrift.STRUCT), byte(thrift.STOP)}
	n := len(a)
	if n < 3 || !bytes.Equal(a[n-3:], emptyRowGroups) || len(b) < n || !bytes.Equal(a[:n-1], b[:n-1]) {
		return nil, nil, errors.New("parquet footer: the file metadata's encoding is not the one this package splices")
	}
	return a[:n-3], b[n-1:], nil
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
