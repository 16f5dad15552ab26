package html

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
)

// FuzzHTML runs the page's whole path (bytes checks, front matter, the
// walk, metadata, chunking) on any input: it must never panic, the body
// keeps its contract, every chunk's span and lines lie inside the page with
// its text the words of its span, every diagnostic's line inside the file,
// and a page over a limit is refused, not read. The seeds are the
// fixtures and the shapes that break naive readers.
func FuzzHTML(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range fixtures {
		b, _ := os.ReadFile(file)
		if i := strings.Index(string(b), ".htm"); i >= 0 {
			f.Add(string(b[strings.IndexByte(string(b[i:]), '\n')+i+1:]), 80)
		}
	}
	for _, s := range []string{
		"<p>a<p>b<li>c<li>d<table><td>e<tr><td>f</table>g",
		"<ul><li>a<ul><li>b<ol start=99999999999><li value=-3>c</ol></ul></ul>",
		"<pre><code>x\n\n  y &lt; z</code><code>w</code></pre>",
		strings.Repeat("<div>", 3000) + "x",
		strings.Repeat("<ul><li>", 100) + "deep",
		strings.Repeat("<blockquote>", 80) + "quote",
		"<table><tr><th colspan=5000>a<th>b<tr><td>1<td>2<table><tr><td>inner</table></table>",
		"<h1>T</h1><h3>a</h3><h1>b</h1><h6>" + strings.Repeat("x", 500) + "</h6>",
		"<script>never closed <p>", "<!-- never closed", "<a b='c", "<plaintext><p>raw",
		"&Gg; &nGt; &#x110000; &#0; &NewLine;&Tab;&amp", "<pre>&NewLine;a&Tab;b&nbsp;c\t\td</pre>",
		"<svg><title>x</title><path/></svg><math><mi>y</mi></math>",
		"<main hidden><p>a</p></main><p>b</p>", "<p role=main>a</p><nav>b</nav>",
		"<a href=#x>¶</a><h2>x<a href=#x>#</a></h2><a href=#y><img alt=z></a>",
		"<img alt=\"" + strings.Repeat("long alt ", 30) + "\">",
		"---\ntitle: t\n---\n<p>front matter</p>", "---\nunclosed", "\xef\xbb\xbf<p>bom</p>\r\n<p>crlf\r</p>",
		"<html lang=pt><meta name=kind content=lore><p>sem praia</p>",
		"<link rel=canonical href='http://[::1'><base href=x><p>a</p>",
		"<dl><dd>a<dt>b<dd>c</dl>", "<br><br><br>x<br><br>y", "</p></li></td></table></html>x",
	} {
		f.Add(s, 40)
	}
	limits := corpus.Limits{MaxBytes: 64 << 10, MaxDepth: 16, MaxBlocks: 1000}
	f.Fuzz(func(t *testing.T, src string, budget int) {
		if budget < 1 || budget > 2000 {
			budget = 40
		}
		for _, name := range []string{"f.html", "safety/f.htm"} {
			p := New(corpus.Options{Limits: limits, SourceOptional: true}).Parse(name, []byte(src))
			if len(src) > limits.MaxBytes && !p.Rejected {
				t.Fatalf("a page of %d bytes was read, over the limit of %d", len(src), limits.MaxBytes)
			}
			srcLines := strings.Count(src, "\n") + strings.Count(src, "\r") + 1
			for _, d := range p.Diags {
				if d.Line < 0 || d.Line > srcLines {
					t.Fatalf("diagnostic line %d outside 0-%d: %s", d.Line, srcLines, d)
				}
			}
			if p.Rejected {
				continue
			}
			if err := p.Body.Check(); err != nil {
				t.Fatalf("the body breaks its contract: %v", err)
			}
			ch, err := chunking.NewChunker(chunking.Config{Unit: "chars", Max: budget, Overlap: budget / 3, Min: budget / 4}, "")
			if err != nil {
				t.Fatal(err)
			}
			chunks, diags := ch.Chunk(p.Body)
			lines := strings.Count(p.Doc.Text, "\n") + 1
			for _, c := range chunks {
				if c.ByteStart < 0 || c.ByteEnd > len(p.Doc.Text) || c.ByteStart >= c.ByteEnd {
					t.Fatalf("chunk %d: span %d-%d outside 0-%d", c.Order, c.ByteStart, c.ByteEnd, len(p.Doc.Text))
				}
				if c.LineStart < 1 || c.LineEnd < c.LineStart || c.LineEnd > lines {
					t.Fatalf("chunk %d: lines %d-%d outside 1-%d", c.Order, c.LineStart, c.LineEnd, lines)
				}
				if c.Element != schema.ElementTableRow {
					if vs, ve := p.Body.ViewSpan(c.ByteStart, c.ByteEnd); c.Text != p.Body.Words(vs, ve) {
						t.Fatalf("chunk %d: text %q is not the words of its span", c.Order, c.Text)
					}
				}
			}
			for _, d := range diags {
				if d.Line < 0 || d.Line > lines {
					t.Fatalf("diagnostic line %d outside 0-%d: %s", d.Line, lines, d)
				}
			}
		}
	})
}
