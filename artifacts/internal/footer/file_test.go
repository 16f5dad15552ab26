package footer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// row has a column of each shape the package must move: plain and
// dictionary-encoded strings (a dictionary page's offset), an optional
// value, repeated values, floats.
type row struct {
	Name  string    `parquet:"name"`
	Kind  string    `parquet:"kind,dict"`
	Note  *string   `parquet:"note,optional"`
	Tags  []string  `parquet:"tags,list"`
	Value []float32 `parquet:"value,list"`
}

func rows(n int) []row {
	out := make([]row, n)
	for i := range out {
		r := row{Name: strings.Repeat("n", i%7), Kind: []string{"a", "b", ""}[i%3], Tags: make([]string, i%4), Value: []float32{float32(i), -1}}
		if i%3 == 0 {
			note := fmt.Sprint("note ", i)
			r.Note = &note
		}
		out[i] = r
	}
	return out
}

var options = []parquet.WriterOption{parquet.PageBufferSize(64), parquet.CreatedBy("footer test", "1", "x"), parquet.DataPageVersion(1)}

// oneWriter is the file parquet-go's one writer makes of rs, a row group
// every per rows.
func oneWriter(t *testing.T, rs []row, per int) []byte {
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[row](&buf, options...)
	w.SetKeyValueMetadata("k", "v")
	for i := 0; i < len(rs); i += per {
		if _, err := w.Write(rs[i:min(i+per, len(rs))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// throughFile is the file of rs written a row group at a time through a
// File spilling into dir, as artifacts.ChunkWriter writes it.
func throughFile(t *testing.T, rs []row, per int, dir string) []byte {
	var buf bytes.Buffer
	f := New(&buf, dir)
	w := parquet.NewGenericWriter[row](f, options...)
	w.SetKeyValueMetadata("k", "v")
	for i := 0; i < len(rs); i += per {
		if _, err := w.Write(rs[i:min(i+per, len(rs))]); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Hold()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		m := w.File().Metadata()
		if err := f.EndRowGroup(m); err != nil {
			t.Fatal(err)
		}
		m.RowGroups[0].Columns = nil
		w.Reset(f)
	}
	if f.RowGroups() == 0 {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestFileSameBytes(t *testing.T) {
	tests := []struct {
		name        string
		rows, per   int
		spillMemory int
	}{
		{"no row", 0, 5, 1 << 20},
		{"one row group", 4, 5, 1 << 20},
		{"row groups exactly full", 20, 5, 1 << 20},
		{"the last row group part full", 23, 5, 1 << 20},
		{"one row a row group", 7, 1, 1 << 20},
		{"the spill on disk", 23, 2, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(n int) { SpillMemory = n }(SpillMemory)
			SpillMemory = tt.spillMemory
			dir := t.TempDir()
			rs := rows(tt.rows)
			want, got := oneWriter(t, rs, tt.per), throughFile(t, rs, tt.per, dir)
			if !bytes.Equal(got, want) {
				t.Errorf("got %d bytes, want parquet-go's %d, the same", len(got), len(want))
			}
			if es, _ := os.ReadDir(dir); len(es) != 0 {
				t.Errorf("got %d files left in the spill's folder, want none", len(es))
			}
		})
	}
}

// TestFileMisuse: a File used out of its order says so rather than writing
// a file that is not the one the writer would have made.
func TestFileMisuse(t *testing.T) {
	tests := []struct {
		name string
		use  func(f *File) error
		want string
	}{
		{"ended without Hold", func(f *File) error {
			return f.EndRowGroup(&format.FileMetaData{RowGroups: make([]format.RowGroup, 1)})
		}, "want one after Hold"},
		{"two row groups in one file", func(f *File) error {
			f.Hold()
			return f.EndRowGroup(&format.FileMetaData{RowGroups: make([]format.RowGroup, 2)})
		}, "2 row groups"},
		{"closed while holding", func(f *File) error { f.Hold(); return f.Close() }, "not ended"},
		{"a later file without the magic", func(f *File) error {
			f.count = 1
			_, err := f.Write([]byte("PAR2"))
			return err
		}, "does not open with PAR1"},
		{"a page index before the held bytes", func(f *File) error {
			f.Write([]byte("PAR1data"))
			f.Hold()
			f.Write([]byte("index"))
			c := format.ColumnChunk{ColumnIndexOffset: 2, ColumnIndexLength: 1, OffsetIndexOffset: 3, OffsetIndexLength: 1}
			return f.EndRowGroup(&format.FileMetaData{RowGroups: []format.RowGroup{{Columns: []format.ColumnChunk{c}}}})
		}, "before the held bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New(&bytes.Buffer{}, t.TempDir())
			if err := tt.use(f); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestAbortRemovesSpill: a run that stops leaves no spill beside its file.
func TestAbortRemovesSpill(t *testing.T) {
	defer func(n int) { SpillMemory = n }(SpillMemory)
	SpillMemory = 1
	dir := t.TempDir()
	f := New(&bytes.Buffer{}, dir)
	if err := f.spill.add(record{ci: [][]byte{{1}}, oi: [][]byte{{2}}, rg: []byte{3}}); err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("got %d files, want the spill's", len(es))
	}
	f.Abort()
	if es, _ := filepath.Glob(filepath.Join(dir, "*")); len(es) != 0 {
		t.Errorf("got %v after Abort, want nothing", es)
	}
}

// TestCopyRowGroupRefuses: a row group is copied only where the file can
// take it, and only whole. A source that ends before the data its metadata
// names (a previous file cut short) fails the copy: io.Copy's short count
// is an error, not a file written short.
func TestCopyRowGroupRefuses(t *testing.T) {
	src := throughFile(t, rows(23), 5, t.TempDir())
	pf, err := parquet.OpenFile(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	m := pf.Metadata()
	x, err := ReadIndex(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	start, end := dataRange(m.RowGroups[2])
	tests := []struct {
		name  string
		first bool // the file has no row group yet
		src   []byte
		g     int
		want  string
	}{
		{"whole", false, src, 2, ""},
		{"as the first", true, src, 2, "copied as row group 0"},
		{"no such row group", false, src, len(m.RowGroups), "row group 5 of 5"},
		{"the source cut inside the data", false, src[:(start+end)/2], 2, "copy row group 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			f := New(&buf, t.TempDir())
			defer f.Abort()
			if !tt.first {
				w := parquet.NewGenericWriter[row](f, options...)
				if _, err := w.Write(rows(3)); err != nil {
					t.Fatal(err)
				}
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
				f.Hold()
				if err := w.Close(); err != nil {
					t.Fatal(err)
				}
				if err := f.EndRowGroup(w.File().Metadata()); err != nil {
					t.Fatal(err)
				}
			}
			err := f.CopyRowGroup(x.View(bytes.NewReader(tt.src)), tt.g) // the source read through src's index
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want the row group copied", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v, want an error naming %q", err, tt.want)
			case tt.want == "" && f.RowGroups() != 2:
				t.Errorf("got %d row groups, want 2", f.RowGroups())
			}
		})
	}
}
