package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"github.com/ocean-safety/ingest/schema"
)

// TestFrontMatter: front matter as documentation sites write it.
func TestFrontMatter(t *testing.T) {
	tests := []struct {
		name      string
		path, src string
		opt       Options
		want      schema.Document // the fields compared: Title, SourceURL, Lang, LangFrom, Description, Draft, Metadata
		wantCodes []string        // every diagnostic code, in order
	}{
		{name: "Hugo YAML with keys ingest does not use", path: "docs/collector/_index.md",
			src:  "---\ntitle: Collector\ndescription: Vendor-agnostic telemetry.\naliases: [collector/about]\nweight: 270\ncascade:\n  vers: 0.158.0\n---\n\nText of the page, with the words of the page.\n",
			opt:  Options{SourceURLTemplate: "https://opentelemetry.io/{path}/"},
			want: schema.Document{Title: "Collector", SourceURL: "https://opentelemetry.io/docs/collector/", Lang: schema.LangEN, LangFrom: LangFromDefault, Description: "Vendor-agnostic telemetry."}},
		{name: "Hugo TOML", path: "blog/post.md",
			src:  "+++\ntitle = \"A post\"\ndraft = false\nsource = \"https://example.org/post\"\ntags = [\"otel\", \"go\"]\n+++\n\nText.\n",
			opt:  Options{MetadataKeys: []string{"tags"}},
			want: schema.Document{Title: "A post", SourceURL: "https://example.org/post", Lang: schema.LangEN, LangFrom: LangFromDefault, Metadata: map[string][]string{"tags": {"otel", "go"}}}},
		{name: "linkTitle when no title", path: "a.md", src: "---\nlinkTitle: Docs\nurl: https://x/a\n---\nText.\n",
			want: schema.Document{Title: "Docs", SourceURL: "https://x/a", Lang: schema.LangEN, LangFrom: LangFromDefault}},
		{name: "first heading when no title", path: "a.md", src: "---\ncanonical: https://x/a\n---\nIntro.\n\n## Getting started {#start}\n\nText.\n",
			want: schema.Document{Title: "Getting started", SourceURL: "https://x/a", Lang: schema.LangEN, LangFrom: LangFromDefault}},
		{name: "file name, with a warning", path: "docs/_includes/note.md", src: "Just a partial.\n", opt: Options{SourceOptional: true},
			want:      schema.Document{Title: "note", Lang: schema.LangEN, LangFrom: LangFromDefault},
			wantCodes: []string{"missing-title", "missing-source"}},
		{name: "file name without its language suffix", path: "docs/manifest/lb-web-service.pt-BR.md", src: "Propriedades do manifesto de um serviço web.\n", opt: Options{SourceOptional: true},
			want:      schema.Document{Title: "lb-web-service", Lang: schema.LangPT, LangFrom: LangFromPath},
			wantCodes: []string{"missing-title", "missing-source"}},
		{name: "draft", path: "a.md", src: "---\ntitle: T\nsource: https://x\ndraft: true\n---\nText.\n",
			want: schema.Document{Title: "T", SourceURL: "https://x", Lang: schema.LangEN, LangFrom: LangFromDefault, Draft: true}},
		{name: "language from the front matter", path: "pt/a.md", src: "---\ntitle: T\nsource: https://x\nlanguage: en-US\n---\nTexto em português, mas a página diz inglês.\n",
			want: schema.Document{Title: "T", SourceURL: "https://x", Lang: schema.LangEN, LangFrom: LangFromDocument}},
		{name: "language from a folder", path: "content/pt_BR/docs/a.md", src: "# T\nSource: https://x\n\nText.\n",
			want: schema.Document{Title: "T", SourceURL: "https://x", Lang: schema.LangPT, LangFrom: LangFromPath}},
		{name: "language from the corpus folder's name", path: "docs/a.md", src: "# T\nSource: https://x\n\nText.\n", opt: Options{RootName: "pt"},
			want: schema.Document{Title: "T", SourceURL: "https://x", Lang: schema.LangPT, LangFrom: LangFromPath}},
		{name: "language from the words", path: "docs/a.md", src: "# T\nSource: https://x\n\nO OpenTelemetry é uma estrutura de observabilidade para que você possa gerar, coletar e exportar dados de telemetria, como rastros, métricas e logs. Não é um backend de observabilidade como o Jaeger, mas sim um padrão para os dados das aplicações.\n",
			want: schema.Document{Title: "T", SourceURL: "https://x", Lang: schema.LangPT, LangFrom: LangFromWords}},
		{name: "language from a short page's title and description", path: "docs/build.md", src: "---\ntitle: Compilar a partir do código-fonte\ndescription: Aprenda como compilar o Collector a partir do código-fonte\nsource: https://x\n---\n\nVocê pode compilar a versão mais recente do Collector com base no seu sistema:\n\n```sh\nmake install\n```\n",
			want: schema.Document{Title: "Compilar a partir do código-fonte", SourceURL: "https://x", Lang: schema.LangPT, LangFrom: LangFromWords, Description: "Aprenda como compilar o Collector a partir do código-fonte"}},
		{name: "a template with {lang}", path: "index.md", src: "# Home\n\nText.\n", opt: Options{SourceURLTemplate: "https://x.org/{lang}/{path}/"},
			want: schema.Document{Title: "Home", SourceURL: "https://x.org/en/", Lang: schema.LangEN, LangFrom: LangFromDefault}},
		{name: "a missing source names both fixes", path: "a.md", src: "# T\n\nText.\n",
			want: schema.Document{Title: "T", Lang: schema.LangEN, LangFrom: LangFromDefault}, wantCodes: []string{"missing-source"}},
		{name: "bad TOML names its line", path: "a.md", src: "+++\ntitle = \"T\"\nsource = oops\n+++\nText.\n",
			want: schema.Document{Title: "a", Lang: schema.LangEN, LangFrom: LangFromDefault}, wantCodes: []string{"front-matter", "missing-title", "missing-source"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, ds := Parse(tt.path, []byte(tt.src), tt.opt)
			got := schema.Document{Title: doc.Title, SourceURL: doc.SourceURL, Lang: doc.Lang, LangFrom: doc.LangFrom, Description: doc.Description, Draft: doc.Draft, Metadata: doc.Metadata}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			var codes []string
			for _, d := range ds {
				codes = append(codes, d.Code)
			}
			if strings.Join(codes, ",") != strings.Join(tt.wantCodes, ",") {
				t.Errorf("got diagnostics %v, want codes %v", ds, tt.wantCodes)
			}
		})
	}
	_, ds := Parse("a.md", []byte("# T\n\nText.\n"), Options{})
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "source_url_template") || !strings.Contains(ds[0].Message, "source: front-matter key") {
		t.Errorf("got %v, want the missing-source message to name the front-matter key and source_url_template", ds)
	}
}

// yamlShapes are front matter as sites write it and as YAML allows besides.
var yamlShapes = []string{
	"title: Collector\ndescription: Vendor-agnostic telemetry.\naliases: [collector/about]\nweight: 270\ncascade:\n  vers: 0.158.0\n",
	"title: T\ndescription:\n  Two lines\n  folded.\ndate: 2024-01-02\nweight: 1.50\ndraft: True\n",
	"title: >-\n  Folded\n  block\nlinkTitle: |\n  literal\n  block\nmenu: { main: { weight: 40 } }\n",
	"cSpell:ignore: devstats otel\n# a comment\ntitle: 'quoted: title'\nkind: \"prose\"\nn: null\ne: ~\nx: 0x1F\no: 0o17\ninf: .inf\n",
	"redirects:\n  - { from: slack-channel, to: '#slack' }\n  - { from: x, to: y }\nparams:\n  btn-class: >-\n    l-primary\n",
	"base: &b\n  title: anchored\nother:\n  <<: *b\ntitle: *x\n",
	"a: &x 1\nb: *x\ntitle: **bold**\n",
	"title: one\n--- # a second document\ntitle: two\n",
	"title: T\ntitle: again\n",
	"title: [unclosed\n",
	"? complex\n: key\ntitle: T\n",
	"\"title\": quoted key\n'lang': pt\n",
	"title: T # comment\nempty:\nlist:\n- a\n- b\n",
	"",
	"title: Estendendo instrumentações com a API\nlinkTitle: Estender com a API\ndescription:\n  Use a API do OpenTelemetry em combinação com o Java agent.\nweight: 21\ndefault_lang_commit: 505e2d1d650a80f8a8d72206f2e285430bc6b36a\ndrifted_from_default: true\n",
	"title: It's the OpenTelemetry `demo`, (v2)\ndescription: >-\n  _OTel in Practice_ is a [series](/x) of talks: #1\n  and more.\ndate: 2024-05-01\nauthor: '[Jane](https://x) (Org)'\ncanonical_url: https://x.org/a#b\ntags: [otel, go, (x)]\n",
	"title: true\ndraft: TRUE\nlang: Null\nsource: \"quoted \\\" escape\"\nurl: 'it''s'\n",
	"title: 'a' b\ndescription: |+\n  kept\n\nkind: a: b\n",
	"title: x\n  continued: here\nlinkTitle:\n  - a\n",
	"title: a\u00a0b\ndescription: a\u2028b\nlang: \ufeffpt\n",
	"title: tab\there\n",
	"A: >\n 0",    // found by FuzzReadYAML: no line break after the last line
	"A: A\xba0\n", // found by FuzzReadYAML: not UTF-8
	"#00\r0\n",    // found by FuzzReadYAML: a carriage return ends a comment
}

// otelFrontMatter is the YAML front matter of every page of the otel corpus,
// when it is beside the clone.
func otelFrontMatter(t testing.TB) []string {
	var srcs []string
	_ = filepath.WalkDir("../../shared/corpora/otel", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil // absent when ../shared is not beside the clone
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if text := string(b); strings.HasPrefix(text, "---\n") {
			if end := strings.Index(text[3:], "\n---\n"); end >= 0 {
				srcs = append(srcs, text[4:3+end+1])
			}
		}
		return nil
	})
	return srcs
}

// TestReadYAMLDecodesAsUnmarshal: front matter decoded from the tree parsed
// for its key lines gives what yaml.Unmarshal of the text gives, values and
// errors.
func TestReadYAMLDecodesAsUnmarshal(t *testing.T) {
	for _, src := range append(yamlShapes, otelFrontMatter(t)...) {
		got, _, gotErr := readYAMLTree(src)
		want := map[string]any{}
		wantErr := yaml.Unmarshal([]byte(src), &want)
		if _, perr := parser.ParseBytes([]byte(src), 0); perr != nil {
			wantErr = perr // readYAMLTree reports the parser's error first
		}
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			if gotErr == nil || !strings.Contains(gotErr.Error(), "mapping") { // a non-mapping body is refused before decoding
				t.Errorf("%q: got error %v, want %v", src, gotErr, wantErr)
			}
			continue
		}
		if gotErr == nil && len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %#v, want %#v", src, got, want)
		}
	}
}

// TestReadSimpleYAML: front matter in the plain shape is read without the
// library, to the same result; the rest is left to the library.
func TestReadSimpleYAML(t *testing.T) {
	used := func(k string) bool { return reads(k, Options{MetadataKeys: []string{"tags"}}) }
	for i, want := range []bool{false, false, false, false, false, false, false, false, false, false, false, false, false, true, true, true, false, false, false, false, false, false, false, false} {
		if _, _, got := readSimpleYAML(yamlShapes[i], used); got != want {
			t.Errorf("%q: got simple %v, want %v", yamlShapes[i], got, want)
		}
	}
	simple, otel := 0, otelFrontMatter(t)
	for _, src := range append(yamlShapes, otel...) {
		checkSimpleYAML(t, src)
		if _, _, ok := readSimpleYAML(src, func(k string) bool { return reads(k, Options{}) }); ok {
			simple++
		}
	}
	t.Logf("%d of %d otel front matters and shapes read without the library", simple, len(otel)+len(yamlShapes))
}

// FuzzReadYAML holds readSimpleYAML to the library on any input it accepts.
func FuzzReadYAML(f *testing.F) {
	for _, s := range yamlShapes {
		f.Add(s)
	}
	f.Fuzz(checkSimpleYAML)
}

// checkSimpleYAML: when readSimpleYAML reads src, with every key's value
// wanted or none, the library reads it too, with the same key lines and, for
// every key, the same text (what ingest takes from a value).
func checkSimpleYAML(t *testing.T, src string) {
	tree, treeLines, treeErr := readYAMLTree(src)
	for _, all := range []bool{true, false} {
		values, lines, ok := readSimpleYAML(src, func(string) bool { return all })
		if !ok {
			continue
		}
		if treeErr != nil {
			t.Fatalf("%q: read simply, but the library says %v", src, treeErr)
		}
		if !reflect.DeepEqual(lines, treeLines) {
			t.Fatalf("%q: got key lines %v, want %v", src, lines, treeLines)
		}
		if !all {
			continue
		}
		if len(values) != len(tree) {
			t.Fatalf("%q: got %d keys, want %d", src, len(values), len(tree))
		}
		for k, tv := range tree {
			got, gotOK := scalar(values[k])
			want, wantOK := scalar(tv)
			if got != want || gotOK != wantOK || !reflect.DeepEqual(strings_(values[k]), strings_(tv)) {
				t.Fatalf("%q: key %s: got %#v, want %#v", src, k, values[k], tv)
			}
		}
	}
}

// TestSourceURL: a template's placeholders filled for the pages of a site,
// one language to a folder or not.
func TestSourceURL(t *testing.T) {
	for _, tt := range []struct {
		template, rel string
		lang          schema.Lang
		want          string
	}{
		{"https://x.org/{path}/", "docs/collector/_index.md", "en", "https://x.org/docs/collector/"},
		{"https://x.org/{path}/", "_index.md", "en", "https://x.org/"},
		{"https://x.org/{path}/", "en/docs/a.md", "en", "https://x.org/en/docs/a/"},
		{"https://x.org/{page}/", "en/docs/a.md", "en", "https://x.org/docs/a/"},
		{"https://x.org/{page}/", "en/_index.md", "en", "https://x.org/"},
		{"https://x.org/{lang}/{page}/", "pt/docs/a.md", "pt", "https://x.org/pt/docs/a/"},
		{"https://x.org/{lang}/{page}/", "pt/index.md", "pt", "https://x.org/pt/"},
		{"https://x.org/{lang}/{page}/", "pt-BR/docs/a.md", "pt", "https://x.org/pt/docs/a/"},
		{"https://x.org/{page}/", "docs/a.md", "en", "https://x.org/docs/a/"}, // no language folder: {page} is {path}
		{"https://x.org/{page}/", "go.md", "en", "https://x.org/go/"},
		{"https://x.org/{page}/", "go/tour.md", "en", "https://x.org/go/tour/"},    // a section named like a language tag is no language folder
		{"https://x.org/{page}/", "en-US/a.md", "en", "https://x.org/a/"},          // a page named like a language is not a folder
		{"https://x.org/{page}.html", "en/a/b.md", "en", "https://x.org/a/b.html"}, // a template of files, not folders
	} {
		if got := SourceURL(tt.template, tt.rel, tt.lang); got != tt.want {
			t.Errorf("SourceURL(%q, %q, %s) = %q, want %q", tt.template, tt.rel, tt.lang, got, tt.want)
		}
	}
}

// TestSourceURLPerLanguage: a document takes its language's template, else
// the site's: the default language at the root, a translation under its
// language (what one template cannot say).
func TestSourceURLPerLanguage(t *testing.T) {
	opt := Options{SourceURLTemplate: "https://x.org/{lang}/{page}/", SourceURLTemplates: map[schema.Lang]string{schema.LangEN: "https://x.org/{page}/"}}
	for rel, want := range map[string]string{
		"en/docs/a.md": "https://x.org/docs/a/",
		"pt/docs/a.md": "https://x.org/pt/docs/a/",
	} {
		doc, ds := Parse(rel, []byte("# T\n\nText.\n"), opt)
		if doc.SourceURL != want || len(ds) != 0 {
			t.Errorf("%s: got %q, %v; want %q", rel, doc.SourceURL, ds, want)
		}
	}
}
