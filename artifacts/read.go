package artifacts

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/artifacts/internal/footer"
	"github.com/ocean-safety/ingest/schema"
)

// ChunkFile is an open chunks.parquet.
type ChunkFile struct {
	path string
	f    interface {
		io.ReaderAt
		io.Closer
	}
	starts        []int64 // each row group's first row, and the file's rows last
	index         *footer.Index
	head          *parquet.File                       // the file without its row groups: its schema and metadata
	leaves        [chunkrow.LeafCount]*parquet.Column // nil for a column the file's version lacks
	SchemaVersion string
	Dims          int
	Rows          int64
}

// readBufferBytes is the read buffer of each column of an open file: a
// reader holds one per column, and a merge a reader per part.
const readBufferBytes = 64 << 10

// OpenChunks opens a chunks.parquet and checks its schema version. It
// reads the file no further than its size when opened; a reader of a
// snapshot opens its chunks as the manifest declares them (OpenChunksAs).
func OpenChunks(path string) (*ChunkFile, error) {
	return checkVersion(OpenAnyVersion(path))
}

// OpenChunksAs opens the chunks.parquet of the snapshot in dir that m
// describes, as OpenChunks does, reading it no further than the size m
// declares: a file of another size is refused before it is read (a
// *SizeError), so a reader never reads a file larger than its manifest
// says, whatever it was replaced by after the snapshot was verified.
func OpenChunksAs(dir string, m Manifest) (*ChunkFile, error) {
	return checkVersion(OpenAnyVersionAs(dir, m))
}

// OpenAnyVersionAs is OpenChunksAs whatever the file's schema version
// (verify's: it reports a wrong version as a failed check).
func OpenAnyVersionAs(dir string, m Manifest) (*ChunkFile, error) {
	path := dir + string(os.PathSeparator) + ChunksFile
	info, ok := m.Files[ChunksFile]
	if !ok {
		return nil, fmt.Errorf("read %s: the manifest lists no %s", path, ChunksFile)
	}
	f, err := OpenDeclared(path, info.Bytes)
	if err != nil {
		return nil, err
	}
	return openChunkFile(path, f, info.Bytes)
}

func checkVersion(cf *ChunkFile, err error) (*ChunkFile, error) {
	if err != nil {
		return nil, err
	}
	if !ReadsSchema(cf.SchemaVersion) {
		cf.Close()
		return nil, fmt.Errorf("read %s: schema version %q, want %q", cf.path, cf.SchemaVersion, SchemaVersion)
	}
	return cf, nil
}

// OpenAnyVersion opens a chunks.parquet whatever its schema version: verify
// reports a wrong version as a failed check, and must read it to do so.
func OpenAnyVersion(path string) (*ChunkFile, error) {
	f, size, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	return openChunkFile(path, declaredFile{io.NewSectionReader(f, 0, size), f}, size) // no further than its size when opened
}

// openChunkFile reads the footer of the chunks.parquet at path through f,
// size bytes, which it closes when it fails; the file's columns must be
// those of a snapshot, of any version this build reads.
func openChunkFile(path string, f interface {
	io.ReaderAt
	io.Closer
}, size int64) (_ *ChunkFile, err error) {
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	defer recoverAs(&err, "read "+path)
	x, err := footer.ReadIndex(f, size)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	cf := &ChunkFile{path: path, f: f, index: x, Rows: x.NumRows(), starts: []int64{0}}
	for _, n := range x.Rows() { // set once: the readers of a file's goroutines share them
		cf.starts = append(cf.starts, cf.starts[len(cf.starts)-1]+n)
	}
	if cf.head, err = cf.open(0, 0); err != nil {
		return nil, err
	}
	cf.SchemaVersion, _ = cf.head.Lookup(keySchemaVersion)
	if v, ok := cf.head.Lookup(keyDims); ok {
		cf.Dims, _ = strconv.Atoi(v)
	}
	if err := cf.findLeaves(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return cf, nil
}

// findLeaves finds the file's column of each leaf, and checks it holds
// what the leaf does, at the same levels.
func (cf *ChunkFile) findLeaves() error {
	for i, want := range leavesOf(chunkFields(max(cf.Dims, 1))) {
		col := cf.head.Root()
		for _, name := range strings.Split(want.path, ".") {
			if col = col.Column(name); col == nil {
				break
			}
		}
		switch {
		case col == nil && (i == chunkrow.LeafLeadIn || i == chunkrow.LeafHeaderRejects || i == chunkrow.LeafSearchText):
			continue // versions 2 and 3 end before lead_in, 4 before search_text
		case col == nil:
			return fmt.Errorf("no column %s", want.path)
		case !col.Leaf() || col.Type().Kind() != want.kind ||
			col.MaxRepetitionLevel() != want.maxRep || col.MaxDefinitionLevel() != want.maxDef:
			return fmt.Errorf("column %s is %s, want %s", want.path, describeColumn(col), want)
		}
		cf.leaves[i] = col
	}
	return nil
}

func describeColumn(col *parquet.Column) string {
	if !col.Leaf() {
		return "a group"
	}
	return leaf{kind: col.Type().Kind(), maxRep: col.MaxRepetitionLevel(), maxDef: col.MaxDefinitionLevel()}.String()
}

// windowGroups is how many row groups a reader of a file holds the
// metadata of: parquet-go's view of a row group of a snapshot takes about
// 50 KB, and a file's row groups grow with the corpus.
const windowGroups = 16

// open is parquet-go's view of the n row groups of the file from first on.
func (cf *ChunkFile) open(first, n int) (*parquet.File, error) {
	r, size, err := cf.index.Window(cf.f, first, n)
	if err == nil {
		var pf *parquet.File
		if pf, err = parquet.OpenFile(r, size,
			parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(readBufferBytes)); err == nil {
			return pf, nil
		}
	}
	return nil, fmt.Errorf("read %s: %w", cf.path, err)
}

// window is one reader's view of a file's row groups, windowGroups at a
// time.
type window struct {
	pf    *parquet.File
	first int
}

// at is where row group g of cf lies in w's view, moved there when it
// lies outside.
func (w *window) at(cf *ChunkFile, g int) (int, error) {
	if w.pf == nil || g < w.first || g >= w.first+len(w.pf.RowGroups()) {
		pf, err := cf.open(g, min(windowGroups, cf.rowGroups()-g))
		if err != nil {
			return 0, err
		}
		w.pf, w.first = pf, g
	}
	return g - w.first, nil
}

// group is row group g of cf, through w.
func (w *window) group(cf *ChunkFile, g int) (parquet.RowGroup, error) {
	i, err := w.at(cf, g)
	if err != nil {
		return nil, err
	}
	return w.pf.RowGroups()[i], nil
}

// rowGroups is how many row groups the file holds.
func (cf *ChunkFile) rowGroups() int { return len(cf.starts) - 1 }

// GroupAt is the row group that starts at row, and its rows (package
// groups' Source: a writer copies it whole).
func (cf *ChunkFile) GroupAt(row int64) (int, int64, bool) {
	g, ok := slices.BinarySearch(cf.starts, row)
	if !ok || g == len(cf.starts)-1 {
		return 0, 0, false
	}
	return g, cf.starts[g+1] - row, true
}

// Close closes the file.
func (cf *ChunkFile) Close() error { return cf.f.Close() }

// Each calls fn for every chunk in file order, a page of each column in
// memory at a time.
func (cf *ChunkFile) Each(ctx context.Context, fn func(schema.Chunk) error) (err error) {
	defer recoverAs(&err, "read chunks")
	r := cf.rows(ctx)
	defer r.close()
	for {
		var c schema.Chunk
		ok, err := r.next(&c)
		if err != nil || !ok {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
}

// ReadChunks reads every chunk of a chunks.parquet into memory (small
// snapshots, tests and tools; the pipeline streams).
func ReadChunks(path string) ([]schema.Chunk, error) {
	cf, err := OpenChunks(path)
	if err != nil {
		return nil, err
	}
	defer cf.Close()
	var out []schema.Chunk
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		out = append(out, c)
		return nil
	})
	return out, err
}
