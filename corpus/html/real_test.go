package html

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
)

// realPages are pages nobody here wrote, where a machine has them: Go's
// specification (hand-written HTML without <html> or <title>), the Node.js
// API docs (generated, a sidebar and highlighted code), npm's docs, the
// Valgrind manual (DocBook), the Rust book (mdBook).
var realPages = []string{
	"/usr/local/go/doc/*.html",
	"/usr/share/doc/nodejs/api/[b-f]*.html", // all.html is over limits.max_bytes
	"/usr/lib/node_modules/npm/docs/output/commands/npm-[a-i]*.html",
	"/usr/share/doc/valgrind/html/*.html",
	"/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html/book/ch0[1-4]*.html",
}

// TestRealPages holds real pages to what checkPage asserts of every page:
// the body's contract, the file's lines and offsets, the words of each
// span, no cut inside a sentence, no block dropped.
func TestRealPages(t *testing.T) {
	var files []string
	for _, g := range realPages {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no real pages on this machine")
	}
	total := 0
	for _, cfg := range []chunking.Config{chunking.DefaultConfig(), {Unit: "tokens", Max: 300, Min: 75}} {
		ch, err := chunking.NewChunker(cfg, "")
		if err != nil {
			t.Fatal(err)
		}
		f := New(corpus.Options{SourceOptional: true})
		for _, file := range files {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), func(t *testing.T) {
				p := f.Parse(filepath.Base(file), raw)
				if p.Rejected {
					t.Fatalf("rejected: %v", p.Diags)
				}
				chunks, _ := ch.Chunk(p.Body)
				total += len(chunks) // a page may be only its title and links (a manual's part page)
				checkPage(t, ch, p, chunks)
			})
		}
	}
	if total < 10*len(files) {
		t.Errorf("got %d chunks of %d pages, want at least 10 a page: pages read as nothing", total, len(files))
	}
}
