package footer

import "io"

// blockBytes is how much of a file a View reads at a time.
const blockBytes = 1 << 20

// blocks reads a file's data a block at a time, keeping the last block:
// a row group's column chunks lie one after the other, and a reader of
// them makes a small read of each (about sixty a row group), which one
// block serves from memory instead of a call each. A read of a block or
// more, or past the data, goes to the file.
type blocks struct {
	r    io.ReaderAt
	end  int64  // where the data ends: no block reads past it
	buf  []byte // the file's bytes from off
	off  int64
	full []byte // buf's storage
}

func (b *blocks) ReadAt(p []byte, off int64) (int, error) {
	if len(p) >= blockBytes || off < 0 || off+int64(len(p)) > b.end {
		return b.r.ReadAt(p, off)
	}
	if off < b.off || off+int64(len(p)) > b.off+int64(len(b.buf)) {
		if b.full == nil {
			b.full = make([]byte, blockBytes)
		}
		n, err := b.r.ReadAt(b.full[:min(blockBytes, b.end-off)], off)
		b.buf, b.off = b.full[:n], off
		if n < len(p) {
			copy(p, b.buf)
			b.buf = nil // a short read is not kept
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
	}
	return copy(p, b.buf[off-b.off:]), nil
}
