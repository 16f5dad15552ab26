package markdown

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/models/extractive"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/internal/slowtest"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// otelCorpus is real documentation nobody here wrote (see
// ../shared/corpora/README.md).
const otelCorpus = "../../../shared/corpora/otel"

// measure chunks every document of a corpus folder as a run would and
// counts what a reader would judge of the chunks.
func measure(t *testing.T, root string, cfg chunking.Config) *chunking.Quality {
	t.Helper()
	return measureSite(t, root, corpus.Filter{Exclude: []string{"**/_includes/**"}}, nil, cfg)
}

// measureSite is measure with a site's own filter and include folders
// (includes.base, relative to root): a site's includes expanded as a run
// expands them.
func measureSite(t *testing.T, root string, filter corpus.Filter, bases []string, cfg chunking.Config) *chunking.Quality {
	t.Helper()
	l, err := corpus.ScanFiltered(root, filter, markdownOnly)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := chunking.NewChunker(cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	p := markdownOnly.Reader(root, corpus.Options{DefaultLang: "en", Limits: corpus.DefaultLimits(), SourceURLTemplate: "https://example.org/{path}/",
		RootName: filepath.Base(root), Root: root, IncludeBases: bases})
	q := chunking.NewQuality(ch)
	for _, rel := range l.Docs {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		parsed := p.ParseBytes(rel, raw)
		if parsed.Rejected || parsed.Doc.Draft {
			continue
		}
		if err := parsed.Body.Check(); err != nil {
			t.Fatalf("%s: the body breaks its contract: %v", rel, err)
		}
		chunks, _ := ch.Chunk(parsed.Body)
		for i := range chunks {
			chunks[i].ContextHeader = extractive.Header(parsed.Doc.Title, chunks[i], models.DefaultHeaderChars)
		}
		q.Add(ch, parsed.Body, chunks)
	}
	return q
}

// TestQualityOtel holds the chunks of the OpenTelemetry docs (en and pt) to
// what a reader needs: no lead-in cut from what it introduces, few
// fragments, code that carries the words introducing it, no heading-only
// chunk, headers that keep the facts, no cut inside a sentence, no site
// markup a reader never sees (chunking.Debris); and, with
// the KB-005 token profile, prose of long sections inside 256–512 tokens.
func TestQualityOtel(t *testing.T) {
	if _, err := os.Stat(otelCorpus); err != nil {
		t.Skipf("%s is not here (%v): the real-corpus test needs ../shared beside the clone", otelCorpus, err)
	}
	if testing.Short() {
		t.Skip("a real corpus: a few seconds")
	}
	slowtest.Mark(t, "the OpenTelemetry docs chunked whole in two profiles: about 5 s")
	profiles := []struct {
		name string
		cfg  chunking.Config
	}{
		{"default", chunking.DefaultConfig()},
		{"kb005", chunking.Config{Unit: "tokens", Max: 512, Min: 256, Overlap: 64}},
	}
	for _, lang := range []string{"en", "pt"} {
		for _, pr := range profiles {
			t.Run(lang+"/"+pr.name, func(t *testing.T) {
				q := measure(t, filepath.Join(otelCorpus, lang), pr.cfg)
				checks := []struct {
					what string
					bad  bool
				}{
					{"chunks that end in \":\" cut from what they introduce", q.Dangling > 0},
					{"non-code chunks under 40 characters over 1%", q.Tiny*100 > q.NonCode},
					{"code chunks whose source introduces them, carrying it, under 95%", q.Carried*100 < q.Introduced*95},
					{"heading- or marker-only chunks", q.HeadingOnly > 0},
					{"headers with an odd number of backticks", q.OddBackticks > 0},
					{"headers that lost a sign, # or backtick", q.Unfaithful > 0},
					{"cuts inside a sentence", q.InSentence > 0},
					{"prose of long sections in min..max under 80%", pr.name == "kb005" && q.InBand*100 < q.Banded*80},
					{"site markup left in chunks (block markers, attribute lists, include markers, directive options, unknown blocks)", q.Debris.Total() > 0},
				}
				for _, c := range checks {
					if c.bad {
						t.Errorf("%s (dangling %d, tiny %d of %d, code %d of %d, heading-only %d, backticks %d, signs %d, cuts %d, band %d of %d, debris %+v; e.g. %v)",
							c.what, q.Dangling, q.Tiny, q.NonCode, q.Carried, q.Introduced, q.HeadingOnly, q.OddBackticks, q.Unfaithful, q.InSentence, q.InBand, q.Banded, q.Debris, q.Examples())
					}
				}
				if q.Chunks == 0 || q.Sizes.Sizes.Stats("").Count != q.Chunks {
					t.Errorf("got %d chunks, %d sized", q.Chunks, q.Sizes.Sizes.Stats("").Count)
				}
			})
		}
	}
}

// TestQualityCounts: each figure counts what it says, on hand-made chunks.
func TestQualityCounts(t *testing.T) {
	ch, _ := chunking.NewChunker(chunking.Config{Unit: "chars", Max: 100, Min: 20}, "")
	p := New(corpus.Options{SourceOptional: true}).Parse("a.md", []byte("# T\n\nTo install it, run:\n\n```sh\nnpm i\n```\n"))
	code := schema.Chunk{DocTitle: "T", Kind: schema.KindProse, Element: schema.ElementCodeBlock, Text: "```sh\nnpm i\n```", ContextHeader: "T: code (sh)"}
	code.ByteStart = len(p.Doc.Text) - len("```sh\nnpm i\n```\n")
	code.ByteEnd = code.ByteStart + len(code.Text)
	lead := schema.Chunk{DocTitle: "T", Kind: schema.KindProse, Element: schema.ElementParagraph, Text: "To install it, run:", ContextHeader: "T: To install it, run:"}
	lead.ByteStart = len("# T\n\n")
	lead.ByteEnd = lead.ByteStart + len(lead.Text)
	q := chunking.NewQuality(ch)
	q.Add(ch, p.Body, []schema.Chunk{lead, code})
	tests := []struct {
		what      string
		got, want int
	}{
		{"dangling", q.Dangling, 1},
		{"tiny", q.Tiny, 1},
		{"bare code headers", q.Bare, 1},
		{"introduced code", q.Introduced, 1},
		{"carried", q.Carried, 0},
		{"under min", q.Sizes.UnderMin, 1},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.what, tt.got, tt.want)
		}
	}
	code.LeadIn, code.ContextHeader = "To install it, run:", "T: To install it, run: (sh)"
	q = chunking.NewQuality(ch)
	q.Add(ch, p.Body, []schema.Chunk{lead, code})
	if q.Dangling != 0 || q.Carried != 1 || q.Bare != 0 {
		t.Errorf("with the lead-in carried: got dangling %d, carried %d, bare %d; want 0, 1, 0", q.Dangling, q.Carried, q.Bare)
	}
	bad := schema.Chunk{DocTitle: "T", Kind: schema.KindProse, Element: schema.ElementParagraph, Text: "-5 °C is cold. `x` too.", ContextHeader: "T: 5 °C is cold. `x"}
	q = chunking.NewQuality(ch)
	q.Add(ch, p.Body, []schema.Chunk{bad})
	if q.Unfaithful != 1 || q.OddBackticks != 1 {
		t.Errorf("got unfaithful %d, odd backticks %d; want 1, 1", q.Unfaithful, q.OddBackticks)
	}
}

// TestQualityBanded: the band figures count the paragraphs and list items
// of the kinds held to the band (schema.KindRules.Banded) only.
func TestQualityBanded(t *testing.T) {
	ch, _ := chunking.NewChunker(chunking.Config{Unit: "chars", Max: 100, Min: 20}, "")
	const text = "Waves above one metre are dangerous for beginners."
	p := New(corpus.Options{SourceOptional: true}).Parse("a.md", []byte("# T\n\n"+text+"\n"))
	tests := []struct {
		name string
		kind schema.Kind
		el   schema.Element
		want int
	}{
		{"a prose paragraph", schema.KindProse, schema.ElementParagraph, 1},
		{"a prose list item", schema.KindProse, schema.ElementListItem, 1},
		{"prose code", schema.KindProse, schema.ElementCodeBlock, 0},
		{"a safety rule", schema.KindSafety, schema.ElementParagraph, 0},
		{"a lore paragraph", schema.KindLore, schema.ElementParagraph, 0},
		{"a structured paragraph", schema.KindStructured, schema.ElementParagraph, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := schema.Chunk{DocTitle: "T", Kind: tt.kind, Element: tt.el, Text: text, ContextHeader: "T: " + text,
				ByteStart: len("# T\n\n"), ByteEnd: len("# T\n\n") + len(text)}
			q := chunking.NewQuality(ch)
			q.Add(ch, p.Body, []schema.Chunk{c})
			if q.Banded != tt.want || q.InBand != tt.want {
				t.Errorf("got banded %d, in band %d; want %d, %d", q.Banded, q.InBand, tt.want, tt.want)
			}
		})
	}
}
