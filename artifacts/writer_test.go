package artifacts

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts/internal/footer"
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
// batches, their values cleared and reused from batch to batch: the rows
// read back unchanged, and a second write gives the same bytes.
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
		{"batches straddle row groups", 5, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := shipped
			set.rowGroupRows, set.batchRows, set.pageSize = tt.rowGroupRows, tt.batchRows, 256
			a, b := writeRows(t, set, rows), writeRows(t, set, rows)
			if !bytes.Equal(a, b) {
				t.Errorf("got %d and %d bytes that differ, want the same bytes twice", len(a), len(b))
			}
		})
	}
}

// TestChunkWriterStreams: each row group reaches the file when it is full,
// not at Close, so the writer holds one row group however many it writes.
// (parquet-go writes through a 32 KiB buffer: a row group here is larger.)
func TestChunkWriterStreams(t *testing.T) {
	set := shipped
	set.rowGroupRows, set.batchRows = 4, 3
	sink := &countingSink{}
	w, err := newChunkWriter(sink, "x", 4, set)
	if err != nil {
		t.Fatal(err)
	}
	written := sink.n
	for i := range 12 {
		c := testRow(fmt.Sprintf("doc-%02d.md", i), 0, i)
		c.Text = incompressible(i, 16<<10)
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		if (i+1)%set.rowGroupRows == 0 {
			if sink.n <= written {
				t.Errorf("after row group %d: got %d bytes written, want more than %d", (i+1)/set.rowGroupRows, sink.n, written)
			}
			written = sink.n
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// incompressible is n bytes of hex no codec shrinks, seeded by i.
func incompressible(i, n int) string {
	var b strings.Builder
	sum := sha256.Sum256([]byte{byte(i)})
	for b.Len() < n {
		b.WriteString(hex.EncodeToString(sum[:]))
		sum = sha256.Sum256(sum[:])
	}
	return b.String()[:n]
}

// TestChunkWriterSettings: settings that cannot write a file are refused
// up front.
func TestChunkWriterSettings(t *testing.T) {
	tests := []struct {
		name string
		set  func(*writerSettings)
	}{
		{"no batch", func(s *writerSettings) { s.batchRows = 0 }},
		{"no row group", func(s *writerSettings) { s.rowGroupRows = 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := shipped
			tt.set(&set)
			if _, err := newChunkWriter(&countingSink{}, "x", 4, set); err == nil || !strings.Contains(err.Error(), "rows a batch") {
				t.Errorf("got %v, want an error naming the batch and row group sizes", err)
			}
		})
	}
}

// writeRows writes rows with set, checks that they read back, and returns the file.
func writeRows(t *testing.T, set writerSettings, rows []schema.Chunk) []byte {
	t.Helper()
	path, b := writeFile(t, set, rows)
	got, err := ReadChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := OpenChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	groups := cf.index.Groups()
	cf.Close()
	if want := (len(rows) + set.rowGroupRows - 1) / set.rowGroupRows; groups != want {
		t.Errorf("got %d row groups, want %d of %d rows", groups, want, set.rowGroupRows)
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
	return b
}

// TestChunkWriterSpilledFooter: the writer that spills each row group's
// footer (package footer) writes the bytes parquet-go's one writer writes,
// for files of no row, one row group part full, row groups exactly full
// and a last one part full, with the spill in memory and on disk; the
// spill's file is gone after Close.
func TestChunkWriterSpilledFooter(t *testing.T) {
	var rows []schema.Chunk
	for i := range 23 {
		c := testRow(fmt.Sprintf("doc-%02d.md", i/3), i%3, i)
		if i%5 == 0 { // empty strings and lists: the values whose encodings differ most from absent ones
			c.Text, c.ContextHeader, c.SectionPath, c.Quantities = "", "", nil, nil
		}
		rows = append(rows, c)
	}
	tests := []struct {
		name         string
		rows         int
		rowGroupRows int
		spillMemory  int
	}{
		{"no row", 0, 4, 1 << 20},
		{"one row group part full", 3, 4, 1 << 20},
		{"row groups exactly full", 20, 4, 1 << 20},
		{"the last row group part full", 23, 4, 1 << 20},
		{"one row a row group", 9, 1, 1 << 20},
		{"the spill on disk", 23, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func(n int) { footer.SpillMemory = n }(footer.SpillMemory)
			footer.SpillMemory = tt.spillMemory
			set := shipped
			set.rowGroupRows, set.batchRows, set.pageSize = tt.rowGroupRows, 2, 256
			one := set
			one.spillFooter = false
			_, want := writeFile(t, one, rows[:tt.rows])
			_, got := writeFile(t, set, rows[:tt.rows])
			if !bytes.Equal(got, want) {
				t.Errorf("got %d bytes, want parquet-go's %d, the same", len(got), len(want))
			}
		})
	}
}

// writeFile writes rows with set into a folder of its own and returns the
// file's path and bytes; the folder must hold nothing else after Close.
func writeFile(t *testing.T, set writerSettings, rows []schema.Chunk) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, ChunksFile)
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
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("got %d files in the folder after Close, want only %s", len(es), ChunksFile)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkInfo(t, w, path)
	return path, b
}

// checkInfo: the size and hash the writer took of what it wrote are the
// file's, as Describe reads it.
func checkInfo(t *testing.T, w *ChunkWriter, path string) {
	t.Helper()
	want, err := Describe(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := w.Info(); got.Bytes != want.Bytes || got.SHA256 != want.SHA256 || got.Rows != w.Rows() {
		t.Errorf("Info() = %+v, want the file's %+v with %d rows", got, want, w.Rows())
	}
}
