package artifacts

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// BenchmarkChunkReader reads back the 20,480 rows BenchmarkChunkWriter
// writes, whole (Each: verify, diff, sync, search) and a document at a
// time (Cursor: the previous snapshot of a run; without vectors, a plan's;
// lean, a merge's and an edit night's), and reports the process's CPU
// time per op. Bytes per op are the rows' text and vectors.
func BenchmarkChunkReader(b *testing.B) {
	rows := benchRows(b, 10*rowGroupRows)
	var raw int64
	for _, c := range rows {
		raw += int64(len(c.Text) + len(c.ContextHeader) + 4*len(c.Embedding))
	}
	path := filepath.Join(b.TempDir(), ChunksFile)
	w, err := NewChunkWriter(path, len(rows[0].Embedding))
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
	read := map[string]func(*ChunkFile) (int, error){
		"each": func(cf *ChunkFile) (n int, err error) {
			err = cf.Each(context.Background(), func(schema.Chunk) error { n++; return nil })
			return n, err
		},
		"cursor":          cursorRows((*ChunkFile).Cursor),
		"without-vectors": cursorRows((*ChunkFile).CursorWithoutVectors),
		"lean":            cursorRows(func(cf *ChunkFile, ctx context.Context) (*Cursor, error) { return cf.CursorLean(ctx, false), nil }),
		"tallied":         cursorRows(func(cf *ChunkFile, ctx context.Context) (*Cursor, error) { return cf.CursorLean(ctx, true), nil }),
	}
	for _, name := range []string{"each", "cursor", "without-vectors", "lean", "tallied"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(raw)
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				cf, err := OpenChunks(path)
				if err != nil {
					b.Fatal(err)
				}
				n, err := read[name](cf)
				cf.Close()
				if err != nil || n != len(rows) {
					b.Fatalf("got %d rows, %v; want %d", n, err, len(rows))
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// cursorRows counts the rows a cursor that open opens reads.
func cursorRows(open func(*ChunkFile, context.Context) (*Cursor, error)) func(*ChunkFile) (int, error) {
	return func(cf *ChunkFile) (n int, err error) {
		cur, err := open(cf, context.Background())
		if err != nil {
			return 0, err
		}
		defer cur.Close()
		for {
			c, err := cur.Next()
			if c == nil || err != nil {
				return n, err
			}
			n++
		}
	}
}
