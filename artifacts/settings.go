package artifacts

import (
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// writerSettings are the Parquet knobs that trade CPU for file size, in one
// value so that BenchmarkChunkWriter can hold alternatives against what
// ships. None of them changes what a reader sees, only how it is stored.
type writerSettings struct {
	codec        compress.Codec
	pageSize     int // bytes of a column's values before a data page is cut
	rowGroupRows int // the most a row group holds
	// groupMin and groupEvery end row groups by content (package groups):
	// at a document one in groupEvery picks by its path, once a group holds
	// groupMin rows; 0 ends them at rowGroupRows only.
	groupMin, groupEvery int
	batchRows            int // rows handed to the writer at a time (the vectors go a row at a time)

	// The embedding column is most of the bytes and of the writer's time.
	embCodec    compress.Codec
	embEncoding encoding.Encoding
	embStats    bool // min/max per page: no query filters on a vector's values

	// spillFooter writes each row group as a file of its own and keeps the
	// footer it makes on disk (package footer): the same bytes, memory one
	// row group's. Without it parquet-go keeps every row group's metadata
	// and page index to its Close: 50 MB of a run's live heap at 1.5 million
	// rows, about 35 bytes a row.
	spillFooter bool
}

// embeddingColumn is the leaf of the embedding column.
const embeddingColumn = "embedding.list.element"

// shipped is what NewChunkWriter uses. The codec and page size were chosen
// with arrow-go's writer (BenchmarkChunkWriter and whole runs over a 106 MB
// copy of the otel docs, 305,140 rows) and kept when the writer moved to
// parquet-go: they are properties of the data, not of the library.
var shipped = writerSettings{
	// Snappy, the codec pyarrow and Spark default to. zstd 1 spent half the
	// writer's CPU on the vectors, and its encoder keeps a 16 MB window that
	// put a run's peak memory 30 MB higher. With these settings the writer
	// took 37% less CPU with the built-in embedder's sparse vectors and 51%
	// less with a model's dense ones; the file is 31% larger with sparse
	// vectors (text 2.8× smaller instead of 4×) and 10% larger with
	// dense ones, which no codec shrinks much.
	codec: &parquet.Snappy,
	// 128 KiB pages: a page the codec works on stays in cache, and a reader
	// holds a page of each column at a time.
	pageSize:     128 << 10,
	rowGroupRows: rowGroupRows,
	groupMin:     groupMin,
	groupEvery:   groupEvery,
	// The small columns a batch at a time (a call per column per row cost
	// more than the values); a batch's text is well under a page.
	batchRows: 64,
	embCodec:  &parquet.Snappy,
	// Byte-stream-split made the sparse vectors 60% larger and slower (dense
	// ones 8% smaller, for a quarter more of the writer's CPU).
	embEncoding: &parquet.Plain,
	embStats:    false, // no reader filters on a vector's values; min/max of every float cost 3% of a run
	spillFooter: true,
}

// options are the writer's options for a file of fields.
func (s writerSettings) options(fields []field) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquetSchema(fields, s),
		createdBy(createdByValue),
		parquet.PageBufferSize(s.pageSize),
		// Version 1 data pages, as arrow-go wrote: every Parquet reader reads
		// them, and some still read no other.
		parquet.DataPageVersion(1),
	}
	if !s.embStats {
		path := []string{"embedding", "list", "element"}
		opts = append(opts, parquet.SkipPageBounds(path...), parquet.SkipPageStatistics(path...))
	}
	return opts
}

// createdBy sets the file's created_by as it is, not in parquet-go's
// "APP version V(build B)" form.
type createdBy string

func (c createdBy) ConfigureWriter(cfg *parquet.WriterConfig) { cfg.CreatedBy = string(c) }
