package extractive

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestExtractiveHeaderPlain: the header quotes the chunk's first sentence as
// a reader sees it, not its Markdown syntax (cases from the otel docs).
func TestExtractiveHeaderPlain(t *testing.T) {
	tests := []struct{ text, want string }{
		{"**Use for**: Instrumentation libraries.\n\n**Examples**: HTTP.", "T › S: Use for: Instrumentation libraries."},
		{"> [!NOTE]\n>\n> Esta seção instrui como compilar. Outra frase.", "T › S: Esta seção instrui como compilar."},
		{"- [OpenTelemetry Semantic Conventions](/docs/specs/semconv/)\n- [Resource](/x/)", "T › S: OpenTelemetry Semantic Conventions Resource"},
		{"1. O custo direto de computação.\n2. O custo indireto.", "T › S: O custo direto de computação."},
		{"See ![the logo](logo.png \"Logo\") for `snake_case` names.", "T › S: See the logo for `snake_case` names."},
		{"Waves above 1.5 m (5 ft) are dangerous.", "T › S: Waves above 1.5 m (5 ft) are dangerous."},
		{"Visit <http://localhost:4321> to verify it.", "T › S: Visit http://localhost:4321 to verify it."},
		{"![Screen capture](shot.png 'Screen capture') of the list.", "T › S: Screen capture of the list."},
		{"- **[Escolha uma issue][]** com os labels: [Good first](< %22good%22>).", "T › S: Escolha uma issue com os labels: Good first."},
		{"Then run `docker compose up`[^1] from the command line.", "T › S: Then run `docker compose up` from the command line."},
		{"Views: 1.3M; % [^1]: 10.5%", "T › S: Views: 1.3M; %: 10.5%"},
		{"[^python-timeline]:\n    A number of projects are still used.", "T › S: A number of projects are still used."},
		{"OpenTelemetry &mdash; the subject of this website &mdash; is a collection.", "T › S: OpenTelemetry — the subject of this website — is a collection."},
		{"Getting started with OBI is straightforward\\! Deploy it.", "T › S: Getting started with OBI is straightforward!"},
		{"Time per request \\[ms\\]: 17.36", "T › S: Time per request [ms]: 17.36"},
		{"Use `{{ \"\\n\" -}}` and `a &amp; b` as written.", "T › S: Use `{{ \"\\n\" -}}` and `a &amp; b` as written."},
		{"> [!IMPORTANT] Important access note\n>\n> You must be registered to attend.", "T › S: Important access note: You must be registered to attend."},
		{"> [!NOTE] Help wanted?\n>\n> Write to us.", "T › S: Help wanted?"},
	}
	for _, tt := range tests {
		c := schema.Chunk{Text: tt.text, SectionPath: []string{"S"}, Element: schema.ElementParagraph}
		if got := Header("T", c, 200); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestExtractiveHeaderKeepsFacts: the header never changes the meaning of
// what it quotes: a sign, a "#" or a backtick of the sentence stays, a cut
// never leaves inline code open, a chunk's lead-in comes first, and code is
// named by the words that introduce it.
func TestExtractiveHeaderKeepsFacts(t *testing.T) {
	tests := []struct {
		name string
		c    schema.Chunk
		max  int
		want string
	}{
		{"a negative temperature", schema.Chunk{Text: "-5 °C water is dangerous. Stay out."}, 200, "T › S: -5 °C water is dangerous."},
		{"a list marker goes, the sign stays", schema.Chunk{Text: "- -5 °C water is dangerous.", Element: schema.ElementListItem}, 200, "T › S: -5 °C water is dangerous."},
		{"a plus sign", schema.Chunk{Text: "+2 m above the mean tide floods the path."}, 200, "T › S: +2 m above the mean tide floods the path."},
		{"a hash that is a word", schema.Chunk{Text: "#1 rule: never swim alone."}, 200, "T › S: #1 rule: never swim alone."},
		{"a leading backtick", schema.Chunk{Text: "`app.py` starts the server."}, 200, "T › S: `app.py` starts the server."},
		{"a cut inside inline code is closed", schema.Chunk{Text: "Set `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT_WITH_A_LONG_NAME` first."}, 40, "T › S: Set `OTEL_EXPORTER_OTLP_TRACES_`…"},
		{"a code span a sentence end cut is closed", schema.Chunk{Text: "`sort_by_label(q, \"a\", ... \"z\")` sorts series."}, 200, "T › S: `sort_by_label(q, \"a\", ...`"},
		{"a heading line the chunk runs into is the path's", schema.Chunk{Text: "## Setup\n\nInstall it first."}, 200, "T › S: Install it first."},
		{"the lead-in of a list's later part", schema.Chunk{Text: "- the water is brown.", Element: schema.ElementListItem, LeadIn: "Never swim when:"}, 200, "T › S: Never swim when: the water is brown."},
		{"code named by its lead-in", schema.Chunk{Text: "```sh\nnpm install x\n```", Element: schema.ElementCodeBlock, LeadIn: "To install it, run:"}, 200, "T › S: To install it, run: (sh)"},
		{"code named by the words before it", schema.Chunk{Text: "Intro.\n\nTo install it, run:\n\n```sh\nnpm install x\n```", Element: schema.ElementCodeBlock}, 200, "T › S: To install it, run: (sh)"},
		{"a short lead-in takes the sentence before it", schema.Chunk{Text: "The SDK reads one file. For example:\n\n```yaml\na: 1\n```", Element: schema.ElementCodeBlock}, 200, "T › S: The SDK reads one file. For example: (yaml)"},
		{"code with nothing before it", schema.Chunk{Text: "```go\nfmt.Println(1)\n```", Element: schema.ElementCodeBlock}, 200, "T › S: code (go)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			c.SectionPath = []string{"S"}
			if c.Element == "" {
				c.Element = schema.ElementParagraph
			}
			got := Header("T", c, tt.max)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if n := len([]rune(got)); n > tt.max {
				t.Errorf("got %q: %d characters, over the cap of %d", got, n, tt.max)
			}
			if strings.Count(got, "`")%2 != 0 {
				t.Errorf("got %q: an odd number of backticks", got)
			}
		})
	}
}

// TestExtractiveHeaderStatesThePoint: a chunk that opens with an aside (a
// callout, a note's label) is headed by what follows it, its point; a chunk
// that is only an aside is headed by the aside. Cases from the otel docs.
func TestExtractiveHeaderStatesThePoint(t *testing.T) {
	tests := []struct {
		name string
		c    schema.Chunk
		want string
	}{
		{"a tip before the point", schema.Chunk{Text: "> [!TIP]\n>\n> When referring to nested keys, use double colons.\n\nTo validate a configuration file, use the `validate` command. For example:\n\n```shell\notelcol validate --config=c.yaml\n```"},
			"T › S: To validate a configuration file, use the `validate` command."},
		{"a titled note before the point", schema.Chunk{Text: "> [!NOTE] Check your work\n>\n> - Added the `Interval` field.\n\nNow you can validate the values."}, "T › S: Now you can validate the values."},
		{"a note's paragraphs go on as a quote", schema.Chunk{Text: "> [!WARNING]\n>\n> This is experimental.\n\n> It may change.\n\nSet the variable first."}, "T › S: Set the variable first."},
		{"a quoted bold label", schema.Chunk{Text: "> **Note:** These visualizations are from one vendor.\n\nHere is the histogram."}, "T › S: Here is the histogram."},
		{"a bold label with a symbol", schema.Chunk{Text: "> ✨ **NOTE:** ✨ Number two matters.\n\nLearn more about the docs."}, "T › S: Learn more about the docs."},
		{"a bold label, not quoted", schema.Chunk{Text: "**Warning**: the port is open.\n\nBind to localhost instead."}, "T › S: Bind to localhost instead."},
		{"a Portuguese label", schema.Chunk{Text: "> **Nota:** isto é opcional.\n\nO contexto ativo é o contexto atual."}, "T › S: O contexto ativo é o contexto atual."},
		{"a chunk that is only a callout", schema.Chunk{Text: "> [!NOTE]\n>\n> The following instructions apply to .NET Framework. More."}, "T › S: The following instructions apply to .NET Framework."},
		{"a callout followed only by code", schema.Chunk{Text: "> [!NOTE]\n>\n> Run it as root.\n\n```sh\nsudo x\n```"}, "T › S: Run it as root."},
		{"a quote is not an aside", schema.Chunk{Text: "> The CRDs have to exist first.\n\nSo create them."}, "T › S: The CRDs have to exist first."},
		{"an aside after the point stays after it", schema.Chunk{Text: "Install the agent.\n\n> [!NOTE]\n>\n> It needs Java 8."}, "T › S: Install the agent."},
		{"a word that only starts like a label", schema.Chunk{Text: "**Notebooks** are supported.\n\nOthers are not."}, "T › S: Notebooks are supported."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			c.SectionPath, c.Element = []string{"S"}, schema.ElementParagraph
			if got := Header("T", c, 200); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
