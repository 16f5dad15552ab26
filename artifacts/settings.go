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
	level        int   // the codec's level, for zstd (1 is its fastest)
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

// shipped is what NewChunkWriter uses, chosen with BenchmarkChunkWriter
// and whole runs over a 106 MB copy of the otel docs (305,140 rows).
var shipped = writerSettings{
	// Snappy, the codec pyarrow and Spark default to. zstd 1 spent half the
	// writer's CPU on the vectors, and its encoder keeps a 16 MB window that
	// put a run's peak memory 30 MB higher. With these settings the writer
	// takes 37% less CPU with the built-in embedder's sparse vectors and 51%
	// less with a model's dense ones; the file is 31% larger with sparse
	// vectors (text 2.8× smaller instead of 4×) and 10% larger with
	// dense ones, which no codec shrinks much.
	codec: compress.Codecs.Snappy,
	// 128 KiB pages rather than arrow-go's 1 MiB: a page the codec works on
	// stays in cache, 5% less of the writer's CPU and a slightly smaller
	// file; 64 KiB saves a little more CPU but the file grows.
	pageSize:     128 << 10,
	rowGroupRows: rowGroupRows,
	// A quarter of a row group a batch: whole row groups built 8 MB of
	// vectors and 8 MB of repetition and definition levels at once, a
	// batch of 512 a quarter of that, for a little less CPU.
	batchRows: 512,
	embCodec:  compress.Codecs.Snappy,
	// Byte-stream-split made the sparse vectors 60% larger and slower (dense
	// ones 8% smaller, for a quarter more of the writer's CPU).
	embEncoding: parquet.Encodings.Plain,
	embStats:    false, // no reader filters on a vector's values; min/max of every float cost 3% of a run
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
