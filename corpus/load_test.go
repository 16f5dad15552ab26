package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

func TestParseValidation(t *testing.T) {
	tests := []struct {
		name     string
		path     string
		src      string
		opt      Options
		wantCode string
		wantLine int
		wantSev  schema.Severity
	}{
		{name: "missing title: the file name, with a warning", path: "a.md", src: "---\nsource: https://x\n---\ntext\n", wantCode: "missing-title", wantLine: 1, wantSev: schema.SeverityWarning},
		{name: "missing source", path: "a.md", src: "# T\n\ntext\n", wantCode: "missing-source", wantLine: 1, wantSev: schema.SeverityError},
		{name: "missing source as warning", path: "a.md", src: "# T\n\ntext\n", opt: Options{SourceOptional: true}, wantCode: "missing-source", wantLine: 1, wantSev: schema.SeverityWarning},
		{name: "lore without beach", path: "a.md", src: "# T\nSource: https://x\nKind: lore\n\ntext\n", wantCode: "lore-without-beach", wantLine: 3, wantSev: schema.SeverityError},
		{name: "unknown kind", path: "a.md", src: "# T\nSource: https://x\nKind: poetry\n\ntext\n", wantCode: "unknown-kind", wantLine: 3, wantSev: schema.SeverityError},
		{name: "unknown lang", path: "a.md", src: "# T\nSource: https://x\nLang: fr\n\ntext\n", wantCode: "unknown-lang", wantLine: 3, wantSev: schema.SeverityError},
		{name: "invalid utf-8 names its line", path: "a.md", src: "# T\nSource: https://x\n\nok\nbad \xff here\n", wantCode: "invalid-utf8", wantLine: 5, wantSev: schema.SeverityError},
		{name: "binary", path: "a.md", src: "# T\n\x00\x01\x02", wantCode: "binary", wantLine: 2, wantSev: schema.SeverityError},
		{name: "empty", path: "a.md", src: "", wantCode: "empty", wantLine: 0, wantSev: schema.SeverityError},
		{name: "blank only", path: "a.md", src: " \n\n\t\n", wantCode: "empty", wantLine: 0, wantSev: schema.SeverityError},
		{name: "unknown header key", path: "a.md", src: "# T\nSource: https://x\nAuthor: me\n\ntext\n", wantCode: "unknown-header", wantLine: 3, wantSev: schema.SeverityWarning},
		{name: "unclosed front matter", path: "a.md", src: "---\ntitle: T\n", wantCode: "unclosed-front-matter", wantLine: 1, wantSev: schema.SeverityError},
		{name: "UTF-16 with a byte order mark", path: "a.md", src: "\xff\xfe#\x00 \x00T\x00\n\x00", wantCode: "utf16", wantLine: 1, wantSev: schema.SeverityError},
		{name: "UTF-16 big-endian", path: "a.md", src: "\xfe\xff\x00#\x00 \x00T", wantCode: "utf16", wantLine: 1, wantSev: schema.SeverityError},
		{name: "too large", path: "a.md", src: "# T\nSource: https://x\n\n" + strings.Repeat("word ", 40), opt: Options{Limits: Limits{MaxBytes: 100}}, wantCode: "too-large", wantLine: 0, wantSev: schema.SeverityError},
		{name: "quotes too deep", path: "a.md", src: "# T\nSource: https://x\n\ntext\n\n" + strings.Repeat(">", 70) + " deep\n", wantCode: "too-deep", wantLine: 6, wantSev: schema.SeverityError},
		{name: "empty quotes too deep", path: "a.md", src: "# T\nSource: https://x\n\n" + strings.Repeat(">", 70) + "\n", wantCode: "too-deep", wantLine: 4, wantSev: schema.SeverityError},
		{name: "list too deep", path: "a.md", src: "# T\nSource: https://x\n\n" + deepList(70), wantCode: "too-deep", wantLine: 4 + 64, wantSev: schema.SeverityError},
		{name: "too many blocks", path: "a.md", src: "# T\nSource: https://x\n\n" + strings.Repeat("para\n\n", 30), opt: Options{Limits: Limits{MaxBlocks: 20}}, wantCode: "too-many-blocks", wantLine: 4 + 2*19, wantSev: schema.SeverityError},
		{name: "too many delimiters", path: "a.md", src: "# T\nSource: https://x\n\n" + strings.Repeat("[", 300) + "\n", opt: Options{Limits: Limits{MaxDelimiters: 200}}, wantCode: "too-many-delimiters", wantLine: 4, wantSev: schema.SeverityError},
		{name: "front-matter lore without beach", path: "a.md", src: "---\ntitle: T\nsource: https://x\nkind: lore\n---\ntext\n", wantCode: "lore-without-beach", wantLine: 4, wantSev: schema.SeverityError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := Parse(tt.path, []byte(tt.src), tt.opt)
			for _, d := range ds {
				if d.Code == tt.wantCode {
					if d.Line != tt.wantLine || d.Severity != tt.wantSev || d.Path != tt.path {
						t.Errorf("got %s, want line %d severity %s", d, tt.wantLine, tt.wantSev)
					}
					if Rejected(ds) != (tt.wantSev == schema.SeverityError) {
						t.Errorf("got rejected %v, want %v", Rejected(ds), tt.wantSev == schema.SeverityError)
					}
					return
				}
			}
			t.Errorf("got %v, want a %s diagnostic", ds, tt.wantCode)
		})
	}
}

// deepList is a list n levels deep, one item a level.
func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- item\n")
	}
	return b.String()
}

// TestShapeWithinLimits: nesting in code, deep-but-fine lists and quotes,
// and ordinary pages pass the pre-scan.
func TestShapeWithinLimits(t *testing.T) {
	for _, src := range []string{
		"# T\nSource: https://x\n\n```\n" + deepList(200) + "```\n",
		"# T\nSource: https://x\n\n" + deepList(60),
		"# T\nSource: https://x\n\n" + strings.Repeat("> ", 60) + "quote\n",
		"# T\nSource: https://x\n\n- a\n  - b\n    - c\n- d\n  - e\n" + strings.Repeat("- x\n", 100),
	} {
		if _, ds := Parse("a.md", []byte(src), Options{}); Rejected(ds) {
			t.Errorf("got %v for a document within the limits", ds)
		}
	}
}

func TestParseMetadata(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want schema.Document // only the metadata fields are compared
	}{
		{
			name: "header lines",
			path: "x.md",
			src:  "# Rip currents\nSource: https://www.weather.gov/\nKind: lore\nLang: pt\nBeach: joaquina\n\nbody\n",
			want: schema.Document{Title: "Rip currents", SourceURL: "https://www.weather.gov/", Kind: schema.KindLore, Lang: schema.LangPT, BeachID: "joaquina"},
		},
		{
			name: "folder defaults",
			path: "pt-BR/safety/regras.md",
			src:  "# Regras\nSource: https://x\n\nbody\n",
			want: schema.Document{Title: "Regras", SourceURL: "https://x", Kind: schema.KindSafety, Lang: schema.LangPT},
		},
		{
			name: "header wins over folder",
			path: "pt-BR/safety/rules.md",
			src:  "# Rules\nSource: https://x\nKind: prose\nLang: en\n\nbody\n",
			want: schema.Document{Title: "Rules", SourceURL: "https://x", Kind: schema.KindProse, Lang: schema.LangEN},
		},
		{
			name: "yaml front matter",
			path: "pt/a.md",
			src:  "---\ntitle: \"Marés\"\nsource: https://www.marinha.mil.br/chm\nkind: structured\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
			want: schema.Document{Title: "Marés", SourceURL: "https://www.marinha.mil.br/chm", Kind: schema.KindStructured, Lang: schema.LangPT},
		},
		{
			name: "closing hashes and indent",
			path: "a.md",
			src:  "  # Title ##\nSource: https://x\n\nbody\n",
			want: schema.Document{Title: "Title", SourceURL: "https://x", Kind: schema.KindProse, Lang: schema.LangEN},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ds := Parse(tt.path, []byte(tt.src), Options{})
			if len(ds) != 0 {
				t.Fatalf("got diagnostics %v, want none", ds)
			}
			got := schema.Document{Title: d.Title, SourceURL: d.SourceURL, Kind: d.Kind, Lang: d.Lang, BeachID: d.BeachID}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if body := d.Text[d.ContentStart:]; !strings.Contains(body, "body") && !strings.Contains(body, "|") {
				t.Errorf("got content %q, want it to start after the header", body)
			}
		})
	}
}

func TestNormalise(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"lone cr", "a\rb", "a\nb"},
		{"bom", "\xef\xbb\xbf# T", "# T"},
		{"nfc", "a\u0301gua", "água"},
		{"nbsp kept", "1,5\u00a0m", "1,5\u00a0m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Normalise([]byte(tt.in)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSameTextSameVersion(t *testing.T) {
	a, _ := Parse("a.md", []byte("# T\r\nSource: https://x\r\n\r\nágua\r\n"), Options{})
	b, _ := Parse("a.md", []byte("\xef\xbb\xbf# T\nSource: https://x\n\na\u0301gua\n"), Options{})
	if a.Version != b.Version {
		t.Errorf("got versions %s and %s, want equal after normalisation", a.Version, b.Version)
	}
}

func TestScan(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"b.md", "a/z.md", "a-b.md", "notes.txt", ".hidden.md", ".git/config", "pt-BR/x.MD"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# T\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs, skipped, err := Scan(root, Formats{{Name: "markdown", Extensions: []string{".md"}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a-b.md", "a/z.md", "b.md", "pt-BR/x.MD"}; !reflect.DeepEqual(docs, want) {
		t.Errorf("got docs %v, want %v", docs, want)
	}
	want := []schema.Skipped{{Path: ".git", Reason: "hidden"}, {Path: ".hidden.md", Reason: "hidden"}, {Path: "notes.txt", Reason: "not-markdown"}}
	if !reflect.DeepEqual(skipped, want) {
		t.Errorf("got skipped %v, want %v", skipped, want)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"ocean": "ocean", "Ocean Safety/": "ocean-safety", "pt_BR": "pt-br", "--x--": "x"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q): got %q, want %q", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"# T\nSource: u\n\nx", "---\ntitle: a\n---\n", "\xff", "# \n", "---\n: :\n---"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, ds := Parse("f.md", b, Options{})
		lines := strings.Count(Normalise(b), "\n") + 1
		for _, x := range ds {
			if x.Line < 0 || x.Line > lines {
				t.Fatalf("diagnostic line %d outside 0..%d: %s", x.Line, lines, x)
			}
		}
		if !Rejected(ds) && (d.ContentStart < d.BodyStart || d.ContentStart > len(d.Text)) {
			t.Fatalf("content start %d outside body %d..%d", d.ContentStart, d.BodyStart, len(d.Text))
		}
	})
}

func TestDefaultSourceLabel(t *testing.T) {
	for _, c := range []struct{ name, root, want string }{
		{"a plain folder", "corpus/ocean", "ocean"},
		{"a language folder takes its parent", "../shared/corpora/otel/en", "otel-en"},
		{"the translation", "../shared/corpora/otel/pt", "otel-pt"},
		{"a region", "site/docs/pt-BR", "docs-pt-br"},
		{"an underscore", "site/zh_Hans", "site-zh-hans"},
		{"not a language", "site/docs", "docs"},
		{"a trailing slash", "otel/pt/", "otel-pt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := DefaultSourceLabel(c.root); got != c.want {
				t.Errorf("DefaultSourceLabel(%q): got %q, want %q", c.root, got, c.want)
			}
		})
	}
}
