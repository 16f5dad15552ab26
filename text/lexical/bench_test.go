package lexical

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oceanParagraphs returns the paragraphs of the shipped corpus, English and
// Portuguese: realistic text, accents included, for the benchmarks.
func oceanParagraphs(tb testing.TB) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir("../../corpus/ocean", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, para := range strings.Split(string(b), "\n\n") {
			if strings.TrimSpace(para) != "" {
				out = append(out, para)
			}
		}
		return nil
	})
	if err != nil || len(out) == 0 {
		tb.Fatalf("read ../corpus/ocean: %v (%d paragraphs)", err, len(out))
	}
	return out
}

// BenchmarkBuiltin embeds the shipped corpus paragraph by paragraph, in
// batches of 10 as the runner does; bytes are the paragraphs' bytes.
func BenchmarkBuiltin(b *testing.B) {
	paras := oceanParagraphs(b)
	var size int64
	for _, p := range paras {
		size += int64(len(p))
	}
	e := NewBuiltin(1024)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(paras); i += 10 {
			if _, err := e.Embed(context.Background(), paras[i:min(i+10, len(paras))]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWords measures the words of a text, which BM25 and the embedder share.
func BenchmarkWords(b *testing.B) {
	paras := oceanParagraphs(b)
	var size int64
	for _, p := range paras {
		size += int64(len(p))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paras {
			Words(p)
		}
	}
}
