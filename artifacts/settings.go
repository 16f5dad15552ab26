package artifacts

import (
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// writerSettings are the Parquet knobs that trade CPU for file size, in one
// value so that BenchmarkChunkWriter can hold alternatives against what
// ships. None of them changes what a reader sees, only how it is stored.
type writerSettings struct {
	codec        compress.Compression
	level        int   // the codec's level; zstd 1 is its fastest
	pageSize     int64 // bytes of a data page before compression
	rowGroupRows int
	batchRows    int // rows built and handed to the writer at a time, a divisor of rowGroupRows

	// The embedding column is most of the bytes and of the writer's time.
	embCodec    compress.Compression
	embLevel    int
	embEncoding parquet.Encoding
	embStats    bool // min/max per page: no query filters on a vector's values
}

// embeddingColumn is the leaf of the embedding column.
const embeddingColumn = "embedding.list.element"

// shipped is what NewChunkWriter uses.
var shipped = writerSettings{
	// zstd's fastest level: the built-in embedder's sparse vectors still
	// shrink about 7×, dense model vectors barely at any level, and the
	// default level made compression the slowest part of a re-run.
	codec:        compress.Codecs.Zstd,
	level:        1,
	pageSize:     parquet.DefaultDataPageSize,
	rowGroupRows: rowGroupRows,
	// A quarter of a row group a batch: whole row groups built 8 MB of
	// vectors and 8 MB of repetition and definition levels at once, a
	// batch of 512 a quarter of that for the same CPU and the same bytes.
	batchRows:   512,
	embCodec:    compress.Codecs.Zstd,
	embLevel:    1,
	embEncoding: parquet.Encodings.Plain,
	embStats:    true,
}

func (s writerSettings) properties() []parquet.WriterProperty {
	opts := []parquet.WriterProperty{
		parquet.WithCreatedBy(createdBy),
		parquet.WithCompression(s.codec),
		parquet.WithCompressionLevel(s.level),
		parquet.WithDataPageSize(s.pageSize),
		parquet.WithDictionaryDefault(false),
		parquet.WithMaxRowGroupLength(int64(s.rowGroupRows)),
		parquet.WithCompressionFor(embeddingColumn, s.embCodec),
		parquet.WithCompressionLevelFor(embeddingColumn, s.embLevel),
		parquet.WithEncodingFor(embeddingColumn, s.embEncoding),
		parquet.WithStatsFor(embeddingColumn, s.embStats),
	}
	for _, c := range lowCardinality {
		opts = append(opts, parquet.WithDictionaryFor(c, true))
	}
	return opts
}
