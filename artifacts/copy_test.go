package artifacts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts/internal/footer"
	"github.com/ocean-safety/ingest/schema"
)

// TestWriteFromCopiesRowGroups (issue 34, item 2): rows given as a
// previous file's own (documents taken whole) are copied a row group at a
// time where they make up one of its row groups and the writer ends its
// own there, and the file has the bytes of one written row by row. An
// edit (a document's rows changed, added or gone) costs the groups it
// touches; the others are copied.
func TestWriteFromCopiesRowGroups(t *testing.T) {
	set := shipped
	set.groupMin, set.groupEvery, set.rowGroupRows = 6, 3, 40
	docs := func(edit func(d int, rows []schema.Chunk) []schema.Chunk) [][]schema.Chunk {
		var out [][]schema.Chunk
		i := 0
		for d := range 300 {
			var rows []schema.Chunk
			for o := range 1 + d%5 {
				rows = append(rows, testRow(fmt.Sprintf("doc-%03d.md", d), o, i))
				i++
			}
			if edit != nil {
				rows = edit(d, rows)
			}
			if len(rows) > 0 {
				out = append(out, rows)
			}
		}
		return out
	}
	flat := func(docs [][]schema.Chunk) []schema.Chunk { return slices.Concat(docs...) }
	// copyFile writes docs, those whole gives a first row for as prev's
	// rows (WriteFrom), the others row by row; with lean rows, prev's rows
	// as a merge reads them (CursorLean).
	copyFile := func(prev *ChunkFile, whole map[string]int64, docs [][]schema.Chunk, lean []schema.Chunk) ([]byte, int) {
		t.Helper()
		path := filepath.Join(t.TempDir(), ChunksFile)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := newChunkWriter(f, path, 4, set)
		if err != nil {
			t.Fatal(err)
		}
		for _, rows := range docs {
			if first, ok := whole[rows[0].DocPath]; ok {
				if lean != nil && rows[0].DocPath != "doc-040.md" { // one read whole: a document meant to be made again, then taken whole
					rows = slices.Clone(lean[first : first+int64(len(rows))])
				}
				err = w.WriteFrom(rows, prev, first)
			} else {
				for _, c := range rows {
					if err = w.Write(c); err != nil {
						break
					}
				}
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkInfo(t, w, path) // copied row groups are hashed as they are copied
		return b, w.Copied()
	}
	base := docs(nil)
	prevPath, _ := writeFile(t, set, flat(base))
	prev, err := OpenAnyVersion(prevPath)
	if err != nil {
		t.Fatal(err)
	}
	defer prev.Close()
	groups := make([]struct{}, prev.index.Groups())
	if len(groups) <= footer.ViewGroups {
		t.Fatalf("got %d row groups, want more than a reader's window of them to copy", len(groups))
	}
	from := map[string]int64{} // each document's first row in prev
	var n int64
	for _, rows := range base {
		from[rows[0].DocPath] = n
		n += int64(len(rows))
	}
	appendRow := func(d int, rows []schema.Chunk) []schema.Chunk {
		if d == 31 {
			rows = append(rows, testRow(rows[0].DocPath, len(rows), 1000))
		}
		return rows
	}
	tests := []struct {
		name      string
		edited    [][]schema.Chunk
		unchanged func(path string) bool // the documents taken whole
		atLeast   int                    // row groups copied (never the first: the file's head is the writer's)
	}{
		{"unchanged", base, func(string) bool { return true }, len(groups) - 1},
		{"a row added to one document", docs(appendRow), func(p string) bool { return p != "doc-031.md" }, len(groups) - 3},
		{"a document gone", docs(func(d int, rows []schema.Chunk) []schema.Chunk {
			if d == 12 {
				return nil
			}
			return rows
		}), func(string) bool { return true }, len(groups) - 3},
		{"a new document", append(base[:20:20], append([][]schema.Chunk{{testRow("doc-019x.md", 0, 2000)}}, base[20:]...)...),
			func(p string) bool { return p != "doc-019x.md" }, len(groups) - 3},
	}
	lean := readCursor(t, prev.CursorLean(context.Background(), false))
	for _, tt := range tests {
		for _, rows := range [][]schema.Chunk{nil, lean} {
			t.Run(fmt.Sprintf("%s/lean %v", tt.name, rows != nil), func(t *testing.T) {
				whole := map[string]int64{}
				for p, f := range from {
					if tt.unchanged(p) {
						whole[p] = f
					}
				}
				a, copied := copyFile(prev, whole, tt.edited, rows)
				_, b := writeFile(t, set, flat(tt.edited))
				if !bytes.Equal(a, b) {
					t.Errorf("the file with row groups copied differs from one written row by row (%d and %d bytes)", len(a), len(b))
				}
				if copied < tt.atLeast || copied > len(groups) {
					t.Errorf("got %d of %d row groups copied, want at least %d", copied, len(groups), tt.atLeast)
				}
			})
		}
	}
}

// TestFill: a Filler gives rows read without their vectors (a plan's
// cursor) the file's vectors, and rows read lean (a merge's, an edit
// night's) the whole of the file's rows, in any order a writer asks for
// them (forward across row groups and the windows of them a reader holds,
// back again, a row group's last row and the next one's first); a row
// past the end is refused.
func TestFill(t *testing.T) {
	set := shipped
	set.groupMin, set.groupEvery, set.rowGroupRows = 6, 3, 40
	var all []schema.Chunk
	for d := range 700 {
		for o := range 1 + d%4 {
			c := testRow(fmt.Sprintf("doc-%03d.md", d), o, len(all))
			if len(all)%5 == 0 { // the columns a lean row keeps and those it leaves
				c.Thresholds = []schema.Threshold{{Subject: "wave_height", Comparator: "at_most", Value: 2, SIUnit: "m", Surface: "2 m",
					Sentence: "Waves up to 2 m.", Line: 3, Origin: "text", DocPath: c.DocPath, SectionPath: c.SectionPath, ContentHash: c.ContentHash, Lang: c.Lang}}
				c.HeaderSource, c.HeaderRejects = schema.HeaderExtractiveFallback, []string{"too long"}
				c.SearchText, c.LeadIn, c.Fields.Hazard = "Title › Section\n"+c.Text, "As follows:", "rip current"
				c.Metadata = map[string][]string{"tags": {"a", "b"}}
			}
			all = append(all, c)
		}
	}
	path, _ := writeFile(t, set, all)
	for _, lean := range []bool{false, true} {
		t.Run(fmt.Sprintf("lean %v", lean), func(t *testing.T) {
			cf, err := OpenAnyVersion(path)
			if err != nil {
				t.Fatal(err)
			}
			defer cf.Close()
			starts := cf.index.Start
			if cf.index.Groups() < 2*footer.ViewGroups+1 {
				t.Fatalf("got %d row groups, want more than two windows of them", cf.index.Groups())
			}
			var cur *Cursor
			if cur = cf.CursorLean(context.Background(), false); !lean {
				cur.Close()
				cur, _ = cf.CursorWithoutVectors(context.Background())
			}
			read := readCursor(t, cur)
			for i, c := range read {
				want := all[i]
				want.Embedding = nil
				if lean { // what a run tallies of a row it takes whole, and no more
					want = schema.Chunk{ChunkID: want.ChunkID, ContentHash: want.ContentHash, DocPath: want.DocPath, DocVersion: want.DocVersion,
						Lang: want.Lang, Kind: want.Kind, Element: want.Element, Safety: want.Safety, SectionPath: want.SectionPath,
						Order: want.Order, Text: want.Text, LineStart: want.LineStart, LineEnd: want.LineEnd, ByteStart: want.ByteStart,
						ByteEnd: want.ByteEnd, TokenCount: want.TokenCount, HeaderSource: want.HeaderSource,
						HeaderRejects: want.HeaderRejects, Thresholds: want.Thresholds}
				}
				if !reflect.DeepEqual(c, want) {
					t.Fatalf("row %d read as\n%+v\nwant\n%+v", i, c, want)
				}
			}
			f := cf.Filler()
			defer f.Close()
			g1 := starts(1)
			for _, r := range [][2]int64{{0, 3}, {g1 - 1, 2}, {starts(2), 5}, {starts(2*footer.ViewGroups+1) - 1, 3}, {1, 1}, {g1 - 2, 4}, {cf.Rows - 3, 3}, {0, cf.Rows}} {
				rows := slices.Clone(read[r[0] : r[0]+r[1]])
				if err := f.Fill(r[0], rows); err != nil {
					t.Fatalf("rows %d+%d: %v", r[0], r[1], err)
				}
				if want := all[r[0] : r[0]+r[1]]; !reflect.DeepEqual(rows, want) {
					t.Fatalf("rows %d+%d filled differ from the rows written", r[0], r[1])
				}
			}
			if err := f.Fill(cf.Rows-1, make([]schema.Chunk, 2)); err == nil {
				t.Error("a row past the end: got no error")
			}
		})
	}
}

// readCursor reads every row of cur, and closes it.
func readCursor(t *testing.T, cur *Cursor) []schema.Chunk {
	t.Helper()
	defer cur.Close()
	var out []schema.Chunk
	for {
		c, err := cur.Next()
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			return out
		}
		out = append(out, *c)
	}
}

// TestCheckCopy: the first row of a row group copied from a source is
// checked as a written row is, and when it came without its vector (a
// merge's, an edit night's) the source's vectors must be as wide as the
// file's: a row group of another embedder's width is never copied in.
func TestCheckCopy(t *testing.T) {
	set := shipped
	row := testRow("doc-000.md", 0, 0)
	path, _ := writeFile(t, set, []schema.Chunk{row}) // 4 dimensions
	src, err := OpenAnyVersion(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bare := row
	bare.Embedding = nil
	bad := row
	bad.Lang = "fr"
	tests := []struct {
		name string
		dims int
		row  schema.Chunk
		want string // "" for none
	}{
		{"with its vector", 4, row, ""},
		{"without it, as wide", 4, bare, ""},
		{"without it, narrower than the file", 8, bare, "holds 4-dimensional embeddings, want 8"},
		{"with a vector narrower than the file", 8, row, "embedding has 4 dimensions, want 8"},
		{"without it, a lang not in the set", 4, func() schema.Chunk { c := bad; c.Embedding = nil; return c }(), "not in the closed set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), ChunksFile)
			f, err := os.Create(out)
			if err != nil {
				t.Fatal(err)
			}
			w, err := newChunkWriter(f, out, tt.dims, set)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Abort()
			err = w.checkCopy(src, tt.row)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
