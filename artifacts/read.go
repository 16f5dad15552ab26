package artifacts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ocean-safety/ingest/schema"
)

// ChunkFile is an open chunks.parquet.
type ChunkFile struct {
	path          string
	pr            *file.Reader // closes the file
	SchemaVersion string
	Dims          int
	Rows          int64
}

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
	return openChunkFile(path, f)
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
	return openChunkFile(path, declaredFile{io.NewSectionReader(f, 0, size), f}) // no further than its size when opened
}

// openChunkFile reads the footer of the chunks.parquet at path through f,
// which it closes when it fails.
func openChunkFile(path string, f interface {
	parquet.ReaderAtSeeker
	io.Closer
}) (_ *ChunkFile, err error) {
	defer recoverAs(&err, "read "+path)
	// Pages are read as they are decoded, not a whole column chunk at once
	// (the embedding column of a row group is megabytes): a merge holds one
	// reader per part open, so this is what its memory grows with.
	props := parquet.NewReaderProperties(memory.DefaultAllocator)
	props.BufferedStreamEnabled, props.BufferSize = true, readBufferBytes
	pr, err := file.NewParquetReader(f, file.WithReadProps(props))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	cf := &ChunkFile{path: path, pr: pr, Rows: pr.NumRows()}
	md := pr.MetaData().KeyValueMetadata()
	if v := md.FindValue("ingest.schema_version"); v != nil {
		cf.SchemaVersion = *v
	}
	if v := md.FindValue("ingest.embedding_dims"); v != nil {
		cf.Dims, _ = strconv.Atoi(*v)
	}
	return cf, nil
}

// Close closes the file.
func (cf *ChunkFile) Close() error { return cf.pr.Close() }

// Each calls fn for every chunk in file order, one row group in memory at a time.
func (cf *ChunkFile) Each(ctx context.Context, fn func(schema.Chunk) error) (err error) {
	defer recoverAs(&err, "read chunks")
	fr, err := pqarrow.NewFileReader(cf.pr, pqarrow.ArrowReadProperties{BatchSize: rowGroupRows}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	rr, err := fr.GetRecordReader(ctx, nil, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for {
		rec, err := rr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read chunks: %w", err)
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := fn(rowAt(rec, i)); err != nil {
				return err
			}
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

func rowAt(rec arrow.RecordBatch, i int) schema.Chunk {
	str := func(col int) string {
		a := rec.Column(col).(*array.String)
		if a.IsNull(i) {
			return ""
		}
		return a.Value(i)
	}
	i32 := func(col int) int { return int(rec.Column(col).(*array.Int32).Value(i)) }
	i64 := func(col int) int { return int(rec.Column(col).(*array.Int64).Value(i)) }
	c := schema.Chunk{
		ChunkID:       str(colChunkID),
		ContentHash:   str(colContentHash),
		DocID:         str(colDocID),
		DocPath:       str(colDocPath),
		DocVersion:    str(colDocVersion),
		DocTitle:      str(colDocTitle),
		SourceURL:     str(colSourceURL),
		SourceLabel:   str(colSourceLabel),
		TenantID:      str(colTenantID),
		Lang:          schema.Lang(str(colLang)),
		Kind:          schema.Kind(str(colKind)),
		Element:       schema.Element(str(colElement)),
		Safety:        rec.Column(colSafety).(*array.Boolean).Value(i),
		BeachID:       str(colBeachID),
		Order:         i32(colChunkOrder),
		Text:          str(colText),
		LineStart:     i32(colLineStart),
		LineEnd:       i32(colLineEnd),
		ByteStart:     i64(colByteStart),
		ByteEnd:       i64(colByteEnd),
		TokenCount:    i32(colTokenCount),
		ContextHeader: str(colContextHeader),
		HeaderSource:  str(colHeaderSource),
		Fields: schema.Fields{Hazard: str(colHazard), Place: str(colPlace), Season: str(colSeason),
			UnsourcedClaim: str(colUnsourcedClaim)},
	}
	sp := rec.Column(colSectionPath).(*array.List)
	vals := sp.ListValues().(*array.String)
	s, e := sp.ValueOffsets(i)
	c.SectionPath = []string{}
	for j := s; j < e; j++ {
		c.SectionPath = append(c.SectionPath, vals.Value(int(j)))
	}
	emb := rec.Column(colEmbedding).(*array.FixedSizeList)
	fv := emb.ListValues().(*array.Float32)
	n := emb.DataType().(*arrow.FixedSizeListType).Len()
	off := emb.Offset() + i
	c.Embedding = append([]float32(nil), fv.Float32Values()[off*int(n):(off+1)*int(n)]...)
	c.Quantities = readQuantities(rec.Column(colQuantities).(*array.List), i)
	c.Thresholds = readThresholds(rec.Column(colThresholds).(*array.List), i, &c)
	c.Metadata = readMetadata(rec.Column(colMetadata).(*array.Map), i)
	if int(rec.NumCols()) > colLeadIn { // version 2 has none
		c.LeadIn = str(colLeadIn)
	}
	if int(rec.NumCols()) > colHeaderRejects { // versions 2 and 3 have none
		c.HeaderRejects = readStrings(rec.Column(colHeaderRejects).(*array.List), i)
	}
	return c
}

// readStrings is row i of a list<string> column (nil when empty).
func readStrings(l *array.List, i int) []string {
	vals := l.ListValues().(*array.String)
	s, e := l.ValueOffsets(i)
	var out []string
	for j := s; j < e; j++ {
		out = append(out, vals.Value(int(j)))
	}
	return out
}

func readMetadata(m *array.Map, i int) map[string][]string {
	if m.IsNull(i) {
		return nil
	}
	keys, items := m.Keys().(*array.String), m.Items().(*array.List)
	vals := items.ListValues().(*array.String)
	s, e := m.ValueOffsets(i)
	out := map[string][]string{}
	for j := int(s); j < int(e); j++ {
		vs, ve := items.ValueOffsets(j)
		list := []string{}
		for k := vs; k < ve; k++ {
			list = append(list, vals.Value(int(k)))
		}
		out[keys.Value(j)] = list
	}
	return out
}

func readQuantities(l *array.List, i int) []schema.Quantity {
	st := l.ListValues().(*array.Struct)
	s, e := l.ValueOffsets(i)
	var out []schema.Quantity
	for j := int(s); j < int(e); j++ {
		out = append(out, schema.Quantity{
			Surface:   st.Field(0).(*array.String).Value(j),
			Value:     st.Field(1).(*array.Float64).Value(j),
			Unit:      st.Field(2).(*array.String).Value(j),
			Dimension: st.Field(3).(*array.String).Value(j),
			SIValue:   st.Field(4).(*array.Float64).Value(j),
			SIUnit:    st.Field(5).(*array.String).Value(j),
			Start:     int(st.Field(6).(*array.Int32).Value(j)),
			End:       int(st.Field(7).(*array.Int32).Value(j)),
			CharStart: int(st.Field(8).(*array.Int32).Value(j)),
			CharEnd:   int(st.Field(9).(*array.Int32).Value(j)),
		})
	}
	return out
}

func readThresholds(l *array.List, i int, c *schema.Chunk) []schema.Threshold {
	st := l.ListValues().(*array.Struct)
	s, e := l.ValueOffsets(i)
	var out []schema.Threshold
	for j := int(s); j < int(e); j++ {
		t := schema.Threshold{
			Subject:     st.Field(0).(*array.String).Value(j),
			Comparator:  st.Field(1).(*array.String).Value(j),
			Value:       st.Field(2).(*array.Float64).Value(j),
			SIUnit:      st.Field(4).(*array.String).Value(j),
			Surface:     st.Field(5).(*array.String).Value(j),
			Sentence:    st.Field(6).(*array.String).Value(j),
			Hazard:      st.Field(7).(*array.String).Value(j),
			Line:        int(st.Field(8).(*array.Int32).Value(j)),
			Origin:      st.Field(9).(*array.String).Value(j),
			DocPath:     c.DocPath,
			SectionPath: c.SectionPath,
			ContentHash: c.ContentHash,
			Lang:        c.Lang,
		}
		if v2 := st.Field(3).(*array.Float64); !v2.IsNull(j) {
			t.Value2 = v2.Value(j)
		}
		out = append(out, t)
	}
	return out
}
