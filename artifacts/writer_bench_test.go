package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// benchRows are the rows BenchmarkChunkWriter writes: the first rows of the
// chunks.parquet named by INGEST_BENCH_CHUNKS when it is set (a real
// snapshot, e.g. of the otel docs), otherwise rows made from the shipped
// corpus's paragraphs with built-in vectors.
//
// INGEST_BENCH_DENSE=1 replaces the vectors with dense unit vectors of
// random floats, as a model server returns, which no codec shrinks much.
func benchRows(b *testing.B, n int) []schema.Chunk {
	b.Helper()
	rows := sparseRows(b, n)
	if os.Getenv("INGEST_BENCH_DENSE") != "" {
		rng := rand.New(rand.NewPCG(5, 6))
		for i := range rows {
			v := make([]float32, len(rows[i].Embedding))
			var norm float64
			for j := range v {
				x := rng.NormFloat64()
				v[j], norm = float32(x), norm+x*x
			}
			for j := range v {
				v[j] /= float32(math.Sqrt(norm))
			}
			rows[i].Embedding = v
		}
	}
	return rows
}

func sparseRows(b *testing.B, n int) []schema.Chunk {
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
// file's bytes per row and the process's CPU time per op (the garbage
// collector's included). Bytes per op are the rows' text and vectors.
func BenchmarkChunkWriter(b *testing.B) {
	rows := benchRows(b, 10*rowGroupRows)
	var raw int64
	for _, c := range rows {
		raw += int64(len(c.Text) + len(c.ContextHeader) + 4*len(c.Embedding))
	}
	zstd1, zstd3 := &zstd.Codec{Level: zstd.SpeedFastest}, &zstd.Codec{Level: zstd.SpeedDefault}
	lz4, none, bss := &parquet.Lz4Raw, &parquet.Uncompressed, &parquet.ByteStreamSplit
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
		{"text-zstd1", with(func(s *writerSettings) { s.codec = zstd1 })},
		{"text-zstd3", with(func(s *writerSettings) { s.codec = zstd3 })},
		{"emb-zstd1", with(func(s *writerSettings) { s.embCodec = zstd1 })},
		{"emb-zstd1-stats", with(func(s *writerSettings) { s.embCodec, s.embStats = zstd1, true })},
		{"emb-lz4raw", with(func(s *writerSettings) { s.embCodec = lz4 })},
		{"emb-uncompressed", with(func(s *writerSettings) { s.embCodec = none })},
		{"emb-bss", with(func(s *writerSettings) { s.embEncoding = bss })},
		{"all-lz4raw", with(func(s *writerSettings) { s.codec, s.embCodec = lz4, lz4 })},
		{"page64K", with(func(s *writerSettings) { s.pageSize = 64 << 10 })},
		{"page256K", with(func(s *writerSettings) { s.pageSize = 256 << 10 })},
		{"page1M", with(func(s *writerSettings) { s.pageSize = 1 << 20 })},
		{"rg1024", with(func(s *writerSettings) { s.rowGroupRows = 1024 })},
		{"rg8192", with(func(s *writerSettings) { s.rowGroupRows = 8192 })},
		{"batch16", with(func(s *writerSettings) { s.batchRows = 16 })},
		{"batch256", with(func(s *writerSettings) { s.batchRows = 256 })},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(raw)
			b.ReportAllocs()
			var size int64
			cpu := processCPU()
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
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(size)/float64(len(rows)), "file-B/row")
		})
	}
}
