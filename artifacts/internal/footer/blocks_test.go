package footer

import (
	"bytes"
	"io"
	"math/rand"
	"testing"

	"github.com/parquet-go/parquet-go/format"
)

// countingReader counts the reads made of it.
type countingReader struct {
	r     io.ReaderAt
	calls int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	return c.r.ReadAt(p, off)
}

// TestBlocks: reads through blocks give the file's bytes, whatever their
// place and size, small forward reads take a call a block, and a file
// shorter than its data says fails the read.
func TestBlocks(t *testing.T) {
	data := make([]byte, 3*blockBytes+123)
	rnd := rand.New(rand.NewSource(1))
	rnd.Read(data)
	tests := []struct {
		name      string
		file      []byte
		reads     func(yield func(off int64, n int))
		wantCalls int // the most reads of the file; 0: not checked
		wantErr   bool
	}{
		{"forward small", data, func(yield func(int64, int)) {
			for off := int64(0); off+100 <= int64(len(data)); off += 1000 {
				yield(off, 100)
			}
		}, 4, false},
		{"anywhere", data, func(yield func(int64, int)) {
			for range 500 {
				n := rnd.Intn(2 * blockBytes)
				yield(rnd.Int63n(int64(len(data)-n)), n)
			}
		}, 0, false},
		{"the file cut short", data[:blockBytes/2], func(yield func(int64, int)) { yield(blockBytes/2-10, 100) }, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: bytes.NewReader(tt.file)}
			b := &blocks{r: c, end: int64(len(data))}
			tt.reads(func(off int64, n int) {
				p := make([]byte, n)
				got, err := b.ReadAt(p, off)
				if tt.wantErr {
					if err == nil {
						t.Errorf("read %d at %d: no error from a file cut short", n, off)
					}
					return
				}
				if err != nil || got != n || !bytes.Equal(p, data[off:off+int64(n)]) {
					t.Fatalf("read %d at %d: got %d bytes (%v), not the file's", n, off, got, err)
				}
			})
			if tt.wantCalls > 0 && c.calls > tt.wantCalls {
				t.Errorf("got %d reads of the file, want %d at most", c.calls, tt.wantCalls)
			}
		})
	}
}

// TestGroupIndex: a row group's page index entries read two reads in all
// where its column indexes lie together and its offset indexes too, an
// entry a read where they do not, and each entry is its own bytes.
func TestGroupIndex(t *testing.T) {
	data := make([]byte, maxIndexSpan+64<<10)
	for i := range data {
		data[i] = byte(i * 7)
	}
	col := func(ci, oi int64) format.ColumnChunk {
		return format.ColumnChunk{ColumnIndexOffset: ci, ColumnIndexLength: 10, OffsetIndexOffset: oi, OffsetIndexLength: 12}
	}
	tests := []struct {
		name      string
		cols      []format.ColumnChunk
		wantCalls int
	}{
		{"together", []format.ColumnChunk{col(100, 5000), col(110, 5012), col(120, 5024)}, 2},
		{"column indexes far apart", []format.ColumnChunk{col(100, 5000), col(int64(maxIndexSpan)+100, 5012)}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: bytes.NewReader(data)}
			index := groupIndex(c, format.RowGroup{Columns: tt.cols})
			for _, cc := range tt.cols {
				for _, e := range [][2]int64{{cc.ColumnIndexOffset, int64(cc.ColumnIndexLength)}, {cc.OffsetIndexOffset, int64(cc.OffsetIndexLength)}} {
					got, err := index(e[0], int32(e[1]))
					if err != nil || !bytes.Equal(got, data[e[0]:e[0]+e[1]]) {
						t.Fatalf("entry at %d: got %v (%v), want its bytes", e[0], got, err)
					}
				}
			}
			if c.calls != tt.wantCalls {
				t.Errorf("got %d reads, want %d", c.calls, tt.wantCalls)
			}
		})
	}
}
