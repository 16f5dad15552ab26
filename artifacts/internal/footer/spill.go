package footer

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// SpillMemory is how many bytes of spilled row groups stay in memory before
// they move to a temporary file: a row group of the shipped writer spills
// about 14 KB, so a corpus of 140,000 chunks stays in memory, and one of
// any size holds no more.
var SpillMemory = 1 << 20

// record is one row group's spill: each column's column index (as the
// writer encoded it) and offset index (moved), and the row group's
// metadata without its page index offsets.
type record struct {
	ci, oi [][]byte
	rg     []byte
}

// spill holds the records in memory, then in a temporary file in dir.
type spill struct {
	dir string
	mem bytes.Buffer
	f   *os.File
	w   *bufio.Writer
	buf []byte
}

// add appends r: its column count, each column's two lengths, the indexes,
// the metadata's length and the metadata.
func (s *spill) add(r record) error {
	b := binary.AppendUvarint(s.buf[:0], uint64(len(r.ci)))
	for i := range r.ci {
		b = binary.AppendUvarint(b, uint64(len(r.ci[i])))
		b = binary.AppendUvarint(b, uint64(len(r.oi[i])))
	}
	for _, x := range r.ci {
		b = append(b, x...)
	}
	for _, x := range r.oi {
		b = append(b, x...)
	}
	b = binary.AppendUvarint(b, uint64(len(r.rg)))
	b = append(b, r.rg...)
	s.buf = b
	if s.f == nil && s.mem.Len()+len(b) > SpillMemory {
		if err := s.toDisk(); err != nil {
			return err
		}
	}
	if s.f == nil {
		s.mem.Write(b)
		return nil
	}
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("parquet footer: spill: %w", err)
	}
	return nil
}

// toDisk moves the spill to a temporary file.
func (s *spill) toDisk() error {
	f, err := os.CreateTemp(s.dir, ".parquet-footer-*")
	if err != nil {
		return fmt.Errorf("parquet footer: spill: %w", err)
	}
	s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
	if _, err := s.w.Write(s.mem.Bytes()); err != nil {
		return fmt.Errorf("parquet footer: spill: %w", err)
	}
	s.mem = bytes.Buffer{}
	return nil
}

// each reads the records in order, calling fn with each.
func (s *spill) each(fn func(record) error) error {
	var r io.Reader = bytes.NewReader(s.mem.Bytes())
	if s.f != nil {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("parquet footer: spill: %w", err)
		}
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("parquet footer: spill: %w", err)
		}
		r = s.f
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		rec, err := readRecord(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("parquet footer: spill: %w", err)
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// readRecord reads the next record; io.EOF at the end.
func readRecord(r *bufio.Reader) (record, error) {
	var rec record
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return rec, err
	}
	lens := make([]uint64, 2*n)
	for i := range lens {
		if lens[i], err = binary.ReadUvarint(r); err != nil {
			return rec, io.ErrUnexpectedEOF
		}
	}
	read := func(n uint64) ([]byte, error) {
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		return b, err
	}
	rec.ci, rec.oi = make([][]byte, n), make([][]byte, n)
	for i := range rec.ci {
		if rec.ci[i], err = read(lens[2*i]); err != nil {
			return rec, io.ErrUnexpectedEOF
		}
	}
	for i := range rec.oi {
		if rec.oi[i], err = read(lens[2*i+1]); err != nil {
			return rec, io.ErrUnexpectedEOF
		}
	}
	k, err := binary.ReadUvarint(r)
	if err != nil {
		return rec, io.ErrUnexpectedEOF
	}
	if rec.rg, err = read(k); err != nil {
		return rec, io.ErrUnexpectedEOF
	}
	return rec, nil
}

// remove closes and removes the spill's file, if it has one.
func (s *spill) remove() {
	if s.f != nil {
		s.f.Close()
		os.Remove(s.f.Name())
		s.f, s.w = nil, nil
	}
	s.mem = bytes.Buffer{}
}
