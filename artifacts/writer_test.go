package artifacts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/ocean-safety/ingest/schema"
)

// testRow is a valid row of a 4-dimension file; i varies its sizes so that
// buffers are reused for columns of other lengths.
func testRow(path string, order, i int) schema.Chunk {
	c := schema.Chunk{
		ChunkID: fmt.Sprintf("id-%d", i), ContentHash: fmt.Sprintf("hash-%d", i), DocID: "doc-" + path, DocPath: path,
		DocVersion: "v1", DocTitle: "Title", SourceURL: "https://example.org", SourceLabel: "docs",
		Lang: schema.LangEN, Kind: schema.KindProse, Element: schema.ElementParagraph, Order: order,
		SectionPath: slices.Repeat([]string{"Section"}, 1+i%3), Text: strings.Repeat("word ", 1+i*7%50),
		ContextHeader: "Title › Section", HeaderSource: "extractive-v1",
		Embedding: []float32{float32(i), 0, -float32(i), 0.5},
	}
	for q := range i % 4 {
		c.Quantities = append(c.Quantities, schema.Quantity{Surface: fmt.Sprintf("%d m", q), Value: float64(q), Unit: "m", Dimension: "length", SIValue: float64(q), SIUnit: "m"})
	}
	return c
}

func TestChunkWriterOrder(t *testing.T) {
	tests := []struct {
		name string
		keys []string // path#order
		want string   // error of the last write, "" for none
	}{
		{"in order", []string{"a.md#0", "a.md#1", "a.md#10", "b.md#0"}, ""},
		{"path prefix first", []string{"a.md#5", "a.md.bak#0"}, ""},
		{"order goes back", []string{"a.md#1", "a.md#0"}, "out of order"},
		{"same key twice", []string{"a.md#1", "a.md#1"}, "out of order"},
		{"path goes back", []string{"b.md#0", "a.md#9"}, "out of order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := NewChunkWriter(filepath.Join(t.TempDir(), ChunksFile), 4)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Abort()
			for i, k := range tt.keys {
				path, order, _ := strings.Cut(k, "#")
				var n int
				fmt.Sscan(order, &n)
				err = w.Write(testRow(path, n, i))
				if i < len(tt.keys)-1 && err != nil {
					t.Fatalf("write %s: got %v, want no error", k, err)
				}
			}
			if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// TestChunkWriterRowGroups writes rows over many small row groups and
// batches, each batch built from the previous one's recycled buffers: the
// rows read back unchanged, and a second write gives the same bytes.
func TestChunkWriterRowGroups(t *testing.T) {
	var rows []schema.Chunk
	for i := range 40 {
		rows = append(rows, testRow(fmt.Sprintf("doc-%02d.md", i/4), i%4, i))
	}
	tests := []struct {
		name                    string
		rowGroupRows, batchRows int
	}{
		{"batches fill row groups", 6, 2},
		{"one batch a row group", 4, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := shipped
			set.rowGroupRows, set.batchRows, set.pageSize = tt.rowGroupRows, tt.batchRows, 256
			a, b := writeRows(t, set, rows, "a.parquet"), writeRows(t, set, rows, "b.parquet")
			if !bytes.Equal(a, b) {
				t.Errorf("got %d and %d bytes that differ, want the same bytes twice", len(a), len(b))
			}
		})
	}
}

// TestChunkWriterBatchStraddles: a batch that would straddle two row groups
// is refused up front (pqarrow would slice it, and arrow-go writes a sliced
// embedding column from the wrong offset).
func TestChunkWriterBatchStraddles(t *testing.T) {
	set := shipped
	set.rowGroupRows, set.batchRows = 5, 3
	if _, err := newChunkWriter(&countingSink{}, "x", 4, set); err == nil || !strings.Contains(err.Error(), "do not divide") {
		t.Errorf("got %v, want an error naming the batch and row group sizes", err)
	}
}

// writeRows writes rows with set, checks that they read back, and returns the file.
func writeRows(t *testing.T, set writerSettings, rows []schema.Chunk, name string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newChunkWriter(f, path, 4, set)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rows {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rows) {
		t.Fatalf("got %d rows back, want %d", len(got), len(rows))
	}
	for i, c := range got {
		want := rows[i]
		if c.Key() != want.Key() || c.Text != want.Text || !slices.Equal(c.SectionPath, want.SectionPath) ||
			!slices.Equal(c.Embedding, want.Embedding) || len(c.Quantities) != len(want.Quantities) {
			t.Errorf("row %d: got %s %q %v %v, want %s %q %v %v", i, c.Key(), c.Text, c.SectionPath, c.Embedding,
				want.Key(), want.Text, want.SectionPath, want.Embedding)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRecycler(t *testing.T) {
	var r recycler
	tests := []struct {
		name string
		size int
	}{{"small", 10}, {"class edge", 4096}, {"large", 3 << 20}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for round := range 3 { // fresh, then recycled dirty
				b := r.Allocate(tt.size)
				if len(b) != tt.size || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%alignment != 0 {
					t.Fatalf("round %d: got len %d at %p, want %d bytes %d-aligned", round, len(b), unsafe.SliceData(b), tt.size, alignment)
				}
				if i := slices.IndexFunc(b, func(c byte) bool { return c != 0 }); i >= 0 {
					t.Fatalf("round %d: got byte %d set, want zeroed memory", round, i)
				}
				for i := range b {
					b[i] = 0xff
				}
				b = r.Reallocate(tt.size*2+1, b)
				if b[0] != 0xff || b[tt.size-1] != 0xff {
					t.Fatalf("round %d: reallocate lost the contents", round)
				}
				r.Free(b)
			}
		})
	}
}
