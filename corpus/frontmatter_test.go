package corpus

import (
	"reflect"
	"strings"
	"testing"

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
