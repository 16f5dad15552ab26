package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// named is a format that reads nothing, and says which it is in the
// document's title.
type named struct {
	name string
	opt  Options
}

func (n named) Parse(rel string, raw []byte) Parsed {
	return Parsed{Doc: schema.Document{Path: rel, Title: n.name, SourceLabel: n.opt.SourceLabel, Text: string(raw)}}
}

func TestReaderPicksTheFormatOfTheExtension(t *testing.T) {
	fs := Formats{
		{Name: "first", Extensions: []string{".md"}, New: func(o Options) Format { return named{"first", o} }},
		{Name: "second", Extensions: []string{".html", ".htm"}, New: func(o Options) Format { return named{"second", o} }},
	}
	root := t.TempDir()
	for _, f := range []string{"a.md", "b.HTML", "c.htm", "d.txt", "big.html"} {
		data := []byte("text")
		if f == "big.html" {
			data = make([]byte, 200)
		}
		if err := os.WriteFile(filepath.Join(root, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := fs.Reader(root, Options{Limits: Limits{MaxBytes: 100}})
	tests := []struct {
		name, rel, want string
		reads           bool
	}{
		{name: "markdown", rel: "a.md", want: "first", reads: true},
		{name: "upper-case extension", rel: "b.HTML", want: "second", reads: true},
		{name: "second extension", rel: "c.htm", want: "second", reads: true},
		{name: "no format: the first, when named", rel: "d.txt", want: "first", reads: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := r.Parse(tt.rel)
			if err != nil {
				t.Fatal(err)
			}
			if p.Doc.Title != tt.want {
				t.Errorf("got format %q, want %q", p.Doc.Title, tt.want)
			}
			if p.RawSHA256 != Digest([]byte("text")) {
				t.Errorf("got raw hash %q, want the file's", p.RawSHA256)
			}
			if p.Doc.SourceLabel != Slug(filepath.Base(root)) {
				t.Errorf("got source label %q, want the folder's slug %q", p.Doc.SourceLabel, Slug(filepath.Base(root)))
			}
			if got := fs.Reads(tt.rel); got != tt.reads {
				t.Errorf("Reads(%q): got %v, want %v", tt.rel, got, tt.reads)
			}
		})
	}
	t.Run("too large: refused unread, hashed", func(t *testing.T) {
		p, err := r.Parse("big.html")
		if err != nil {
			t.Fatal(err)
		}
		if !p.Rejected || len(p.Diags) != 1 || p.Diags[0].Code != "too-large" || p.Doc.Title != "" {
			t.Errorf("got rejected %v, diags %v, title %q; want refused before any format", p.Rejected, p.Diags, p.Doc.Title)
		}
		if p.RawSHA256 != Digest(make([]byte, 200)) {
			t.Errorf("got raw hash %q, want the file's", p.RawSHA256)
		}
	})
}

func TestReadingSetFrontMatterWins(t *testing.T) {
	r, ok := Read("p.html", []byte("---\ntitle: From front matter\n---\n<title>From the page</title>\n"), Options{MetadataKeys: []string{"author"}, SourceOptional: true})
	if !ok {
		t.Fatalf("got refused: %v", r.Diagnostics())
	}
	if !r.Set("title", "From the page", 4) || !r.Set("canonical", "https://example.org/p", 5) {
		t.Fatal("got a key ingest reads refused")
	}
	if r.Set("generator", "x", 6) {
		t.Error("got an unknown key taken")
	}
	r.SetMetadata("Author", []string{"Ana"})
	r.SetMetadata("keywords", []string{"k"})
	doc, ds := r.Resolve(func() string { return "" }, "")
	if doc.Title != "From front matter" || doc.SourceURL != "https://example.org/p" {
		t.Errorf("got title %q, source %q; want the front matter's title and the page's canonical URL", doc.Title, doc.SourceURL)
	}
	if len(doc.Metadata) != 1 || doc.Metadata["author"][0] != "Ana" {
		t.Errorf("got metadata %v, want only the configured author", doc.Metadata)
	}
	if len(ds) != 0 {
		t.Errorf("got diagnostics %v, want none", ds)
	}
}

// TestMayInclude: a document that may hold an include directive is parsed
// for its input hash (what it includes is hashed with it); one that cannot
// is hashed as its bytes.
func TestMayInclude(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want bool
	}{
		{"plain text", "# Title\n\nWords.\n", false},
		{"a snippet", "--8<-- \"x.md\"\n", true},
		{"a Jinja include", "{% include 'x.yaml' %}\n", true},
		{"a Hugo include", "{{% include \"x.md\" %}}\n", true},
		{"an MDX raw import", "import X from '!!raw-loader!./x.go';\n<CodeBlock>{X}</CodeBlock>\n", true},
		{"a Vite raw import", "import X from './x.go?raw';\n", true},
		{"a codeinclude block", "<!--codeinclude-->\n[Run](../x_test.go) inside_block:ExampleRun\n<!--/codeinclude-->\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mayInclude([]byte(tt.raw)); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
