package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/ocean-safety/ingest/lexical"
	"github.com/ocean-safety/ingest/schema"
)

// benchRows are the rows BenchmarkChunkWriter writes: the first rows of the
// chunks.parquet named by INGEST_BENCH_CHUNKS when it is set (a real
// snapshot, e.g. of the otel docs), otherwise rows made from the shipped
// corpus's paragraphs with built-in vectors.
func benchRows(b *testing.B, n int) []schema.Chunk {
	b.Helper()
	if path := os.Getenv("INGEST_BENCH_CHUNKS"); path != "" {
		return realRows(b, path, n)
	}
	var paras []string
	err := filepath.WalkDir("../corpus/ocean", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		text, err := os.ReadFile(p)
		for _, para := range strings.Split(string(text), "\n\n") {
			if strings.TrimSpace(para) != "" {
				paras = append(paras, para)
			}
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	emb := lexical.NewBuiltin(1024)
	rows := make([]schema.Chunk, n)
	for i := range rows {
		text := paras[i%len(paras)]
		sum := sha256.Sum256([]byte(text))
		c := schema.Chunk{
			ChunkID: fmt.Sprintf("%08x-0000-5000-8000-%012x", i, i), ContentHash: hex.EncodeToString(sum[:]),
			DocID: fmt.Sprintf("%08x-0000-5000-8000-000000000000", i/20), DocPath: fmt.Sprintf("docs/%03d/doc-%05d.md", i/2000, i/20),
			DocVersion: "v1", DocTitle: "Document " + fmt.Sprint(i/20), SourceURL: "https://example.org/" + fmt.Sprint(i/20),
			SourceLabel: "docs", Lang: schema.LangEN, Kind: schema.KindProse, Element: schema.ElementParagraph,
			SectionPath: []string{"Section", fmt.Sprint(i % 7)}, Order: i % 20, Text: text,
			LineStart: i % 20 * 3, LineEnd: i%20*3 + 2, ByteStart: i % 20 * 300, ByteEnd: i%20*300 + len(text),
			TokenCount: len(text) / 4, ContextHeader: "Document › Section: " + text[:min(80, len(text))], HeaderSource: "extractive-v1",
		}
		vs, err := emb.Embed(context.Background(), []string{lexical.EmbedInput(c)})
		if err != nil {
			b.Fatal(err)
		}
		c.Embedding = vs[0]
		rows[i] = c
	}
	return rows
}

var errEnough = errors.New("enough rows")

func realRows(b *testing.B, path string, n int) []schema.Chunk {
	cf, err := OpenChunks(path)
	if err != nil {
		b.Fatal(err)
	}
	defer cf.Close()
	var rows []schema.Chunk
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		if len(rows) == n {
			return errEnough
		}
		rows = append(rows, c)
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		b.Fatal(err)
	}
	return rows
}

// countingSink is a file that keeps nothing: the benchmark measures the
// writer's CPU, not the disk.
type countingSink struct{ n int64 }

func (s *countingSink) Write(p []byte) (int, error) { s.n += int64(len(p)); return len(p), nil }
func (s *countingSink) Close() error                { return nil }

// BenchmarkChunkWriter writes 20,480 rows (ten row groups) with the shipped
// settings and with the alternatives they were chosen over, and reports the
// file's bytes per row. Bytes per op are the rows' text and vectors, so
// MB/s compares the settings' CPU per MB of input. Run with -cpu 1 for CPU
// time: the writer uses one goroutine.
func BenchmarkChunkWriter(b *testing.B) {
	rows := benchRows(b, 10*rowGroupRows)
	var raw int64
	for _, c := range rows {
		raw += int64(len(c.Text) + len(c.ContextHeader) + 4*len(c.Embedding))
	}
	zstd, plain, bss := compress.Codecs.Zstd, parquet.Encodings.Plain, parquet.Encodings.ByteStreamSplit
	with := func(f func(*writerSettings)) writerSettings {
		s := shipped
		f(&s)
		return s
	}
	variants := []struct {
		name string
		set  writerSettings
	}{
		{"shipped", shipped},
		{"zstd1-page1M-rg2048", with(func(s *writerSettings) {
			*s = writerSettings{zstd, 1, 1 << 20, 2048, 2048, zstd, 1, plain, true}
		})},
		{"zstd3", with(func(s *writerSettings) { s.level, s.embLevel = 3, 3 })},
		{"zstd1-page64K", with(func(s *writerSettings) { s.pageSize = 64 << 10 })},
		{"zstd1-page4M", with(func(s *writerSettings) { s.pageSize = 4 << 20 })},
		{"zstd1-page128K", with(func(s *writerSettings) { s.pageSize = 128 << 10 })},
		{"zstd1-page256K", with(func(s *writerSettings) { s.pageSize = 256 << 10 })},
		{"emb-uncompressed", with(func(s *writerSettings) { s.embCodec = compress.Codecs.Uncompressed })},
		{"emb-snappy-page256K", with(func(s *writerSettings) { s.embCodec, s.pageSize = compress.Codecs.Snappy, 256<<10 })},
		{"zstd1-rg8192", with(func(s *writerSettings) { s.rowGroupRows = 8192 })},
		{"zstd1-rg1024", with(func(s *writerSettings) { s.rowGroupRows = 1024 })},
		{"batch256", with(func(s *writerSettings) { s.batchRows = 256 })},
		{"batch2048", with(func(s *writerSettings) { s.batchRows = 2048 })},
		{"emb-nostats", with(func(s *writerSettings) { s.embStats = false })},
		{"emb-bss", with(func(s *writerSettings) { s.embEncoding = bss })},
		{"emb-bss-nostats", with(func(s *writerSettings) { s.embEncoding, s.embStats = bss, false })},
		{"emb-lz4raw", with(func(s *writerSettings) { s.embCodec = compress.Codecs.Lz4Raw })},
		{"emb-snappy", with(func(s *writerSettings) { s.embCodec = compress.Codecs.Snappy })},
		{"emb-bss-lz4raw", with(func(s *writerSettings) { s.embCodec, s.embEncoding = compress.Codecs.Lz4Raw, bss })},
		{"all-snappy", with(func(s *writerSettings) { s.codec, s.embCodec = compress.Codecs.Snappy, compress.Codecs.Snappy })},
		{"all-lz4raw", with(func(s *writerSettings) { s.codec, s.embCodec = compress.Codecs.Lz4Raw, compress.Codecs.Lz4Raw })},
		{"uncompressed", with(func(s *writerSettings) {
			s.codec, s.embCodec = compress.Codecs.Uncompressed, compress.Codecs.Uncompressed
		})},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(raw)
			b.ReportAllocs()
			var size int64
			for b.Loop() {
				sink := &countingSink{}
				w, err := newChunkWriter(sink, "bench", len(rows[0].Embedding), v.set)
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range rows {
					if err := w.Write(c); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				size = sink.n
			}
			b.ReportMetric(float64(size)/float64(len(rows)), "file-B/row")
		})
	}
}
