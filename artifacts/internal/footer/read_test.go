package footer

import (
	"bytes"
	"encoding/binary"
	"io"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
)

// readAll reads every row of the Parquet file r of size bytes.
func readAll(t *testing.T, r io.ReaderAt, size int64) []row {
	t.Helper()
	pf, err := parquet.OpenFile(r, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]row, pf.NumRows())
	n, err := parquet.NewGenericReader[row](pf).Read(out)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	return out[:n]
}

// TestWindow reads the file's row groups through windows of every width
// and place: each holds its own rows, and only its row groups.
func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		name string
		file func(t *testing.T, rs []row, per int) []byte
	}{
		{"one writer", oneWriter},
		{"through a File", func(t *testing.T, rs []row, per int) []byte { return throughFile(t, rs, per, t.TempDir()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := rows(23)
			src := tc.file(t, rs, 5)
			x, err := ReadIndex(bytes.NewReader(src), int64(len(src)))
			if err != nil {
				t.Fatal(err)
			}
			var starts []int64
			for g := range x.Groups() + 1 {
				starts = append(starts, x.Start(g))
			}
			if !reflect.DeepEqual(starts, []int64{0, 5, 10, 15, 20, 23}) || x.NumRows() != 23 {
				t.Fatalf("row groups start at %v (%d rows), want 0 5 10 15 20 23 (23)", starts, x.NumRows())
			}
			for _, tc := range []struct {
				row    int64
				g      int
				at     bool
				atRows int64
			}{{0, 0, true, 5}, {4, 0, false, 0}, {5, 1, true, 5}, {22, 4, false, 0}, {20, 4, true, 3}} {
				g, rows, at := x.GroupAt(tc.row)
				if x.GroupOf(tc.row) != tc.g || at != tc.at || at && (g != tc.g || rows != tc.atRows) {
					t.Errorf("row %d: in group %d, group at it %d (%d rows, %v); want %d, %v", tc.row, x.GroupOf(tc.row), g, rows, at, tc.g, tc.at)
				}
			}
			for first := 0; first <= 5; first++ {
				for n := 0; first+n <= 5; n++ {
					w, size, err := x.Window(bytes.NewReader(src), first, n)
					if err != nil {
						t.Fatal(err)
					}
					want := rs[min(first*5, 23):min((first+n)*5, 23)]
					if got := readAll(t, w, size); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
						t.Errorf("window %d+%d: %d rows, want %d", first, n, len(got), len(want))
					}
				}
			}
			if _, _, err := x.Window(bytes.NewReader(src), 4, 2); err == nil {
				t.Error("a window past the last row group: no error")
			}
		})
	}
}

// TestReadIndexRefuses: a file that is not Parquet, or whose footer lies,
// is refused with an error, never a panic.
func TestReadIndexRefuses(t *testing.T) {
	src := throughFile(t, rows(23), 5, t.TempDir())
	n := int(binary.LittleEndian.Uint32(src[len(src)-8:]))
	footerAt := len(src) - 8 - n
	mutate := func(fn func(b []byte) []byte) []byte { return fn(bytes.Clone(src)) }
	tests := []struct {
		name string
		file []byte
		want string
	}{
		{"short", []byte("PAR1"), "too short"},
		{"no magic at the start", mutate(func(b []byte) []byte { b[0] = 'x'; return b }), "does not start as Parquet"},
		{"no magic", mutate(func(b []byte) []byte { b[len(b)-1] = 'x'; return b }), "does not end with a Parquet footer"},
		{"length past the start", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-8:], uint32(len(b)))
			return b
		}), "does not end with a Parquet footer"},
		{"footer cut", mutate(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-8:], uint32(n/2))
			return append(b[:footerAt], b[len(b)-8-n/2:]...)
		}), "parquet footer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadIndex(bytes.NewReader(tt.file), int64(len(tt.file)))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}

// FuzzReadIndex: any bytes in the footer give an index or an error, never
// a panic; an index's row groups hold its rows, and window.
func FuzzReadIndex(f *testing.F) {
	dir := f.TempDir()
	t := &testing.T{}
	src := throughFile(t, rows(23), 5, dir)
	n := int(binary.LittleEndian.Uint32(src[len(src)-8:]))
	f.Add(src[len(src)-8-n : len(src)-8])
	f.Fuzz(func(t *testing.T, footer []byte) {
		file := append(append([]byte("PAR1"), footer...), 0, 0, 0, 0, 'P', 'A', 'R', '1')
		binary.LittleEndian.PutUint32(file[len(file)-8:], uint32(len(footer)))
		x, err := ReadIndex(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			return
		}
		if sum := x.Start(x.Groups()); sum != x.NumRows() {
			t.Fatalf("rows %d, groups hold %d", x.NumRows(), sum)
		}
		if x.Groups() > 0 {
			if _, _, err := x.Window(bytes.NewReader(file), 0, x.Groups()); err != nil {
				t.Fatal(err) // what the index read, it can window
			}
		}
	})
}

// TestView: a view holds the metadata of ViewGroups row groups at most,
// wherever it is asked, forward or back, and gives each row group's rows.
func TestView(t *testing.T) {
	rs := rows(40)
	src := throughFile(t, rs, 1, t.TempDir())
	x, err := ReadIndex(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	v := x.View(bytes.NewReader(src), parquet.SkipPageIndex(true))
	for _, g := range []int{0, 1, 15, 16, 39, 3, 38, 20} {
		pf, i, err := v.At(g)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(pf.RowGroups()); n > ViewGroups || i >= n {
			t.Fatalf("row group %d: at %d of a view of %d, want a view of at most %d", g, i, n, ViewGroups)
		}
		got := make([]row, 1)
		if _, err := parquet.NewGenericRowGroupReader[row](pf.RowGroups()[i]).Read(got); err != nil && err != io.EOF {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[0], rs[g]) {
			t.Errorf("row group %d: got %+v, want %+v", g, got[0], rs[g])
		}
	}
}

// TestDecodeHeadOwnsItsBytes: the head decoded from a footer keeps no
// string that points into the footer, which a reader would keep whole.
func TestDecodeHeadOwnsItsBytes(t *testing.T) {
	src := throughFile(t, rows(23), 5, t.TempDir())
	n := int(binary.LittleEndian.Uint32(src[len(src)-8:]))
	footer := bytes.Clone(src[len(src)-8-n : len(src)-8])
	var proto thrift.CompactProtocol
	h, err := decodeHead(&proto, footer)
	if err != nil {
		t.Fatal(err)
	}
	inside := func(s string) bool {
		if s == "" {
			return false
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		lo := uintptr(unsafe.Pointer(&footer[0]))
		return p >= lo && p < lo+uintptr(len(footer))
	}
	var names []string
	for _, e := range h.Schema {
		names = append(names, e.Name)
	}
	for _, kv := range h.KeyValueMetadata {
		names = append(names, kv.Key, kv.Value)
	}
	if len(h.Schema) < 5 || len(h.KeyValueMetadata) == 0 || h.NumRows != 23 {
		t.Fatalf("decoded %d schema elements, %d key-values, %d rows; want the file's", len(h.Schema), len(h.KeyValueMetadata), h.NumRows)
	}
	for _, s := range append(names, h.CreatedBy) {
		if inside(s) {
			t.Errorf("%q points into the footer", s)
		}
	}
}
