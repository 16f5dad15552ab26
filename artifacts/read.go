package artifacts

import (
	"context"
	"fmt"
	"io"
	"os"
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
	index  *footer.Index
	head   *parquet.File                       // the file without its row groups: its schema and metadata
	copies *footer.View                        // the row groups a writer copies (one writer's at a time)
	leaves [chunkrow.LeafCount]*parquet.Column // nil for a column the file's version lacks
	// lacks are the leaves the rows its cursors hand out may lack
	// (CursorWithoutVectors, CursorLean): a Filler reads them.
	lacks         leafSet
	SchemaVersion string
	Dims          int
	Rows          int64
}

// fileOptions open a file's row groups, a few at a time (footer.View),
// with a read buffer of 64 KB for each column: a reader holds one per
// column, and a merge a reader per part.
var fileOptions = []parquet.FileOption{parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(64 << 10)}

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
	cf := &ChunkFile{path: path, f: f, index: x, Rows: x.NumRows(), copies: x.View(f, fileOptions...)}
	if cf.head, err = x.Open(f, 0, 0, fileOptions...); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
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

// GroupAt is the row group that starts at row, and its rows (package
// groups' Source: a writer copies it whole).
func (cf *ChunkFile) GroupAt(row int64) (int, int64, bool) { return cf.index.GroupAt(row) }

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
