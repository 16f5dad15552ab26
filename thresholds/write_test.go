package thresholds

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/schema"
)

// fixtureChunk is a chunk of document path starting at line, as the
// chunker would cut it.
func fixtureChunk(path string, lang schema.Lang, line int, element schema.Element, text string) schema.Chunk {
	return schema.Chunk{
		DocPath:     path,
		SectionPath: []string{"Safety"},
		Lang:        lang,
		Element:     element,
		Text:        text,
		LineStart:   line,
		ContentHash: "hash-" + path,
	}
}

// proposalChunks agree with one another: 1.5 m and 5 ft (1.524 m) are
// within the conflict tolerance. The last ones state no limit and must
// stay out of the proposal.
func proposalChunks() []schema.Chunk {
	en, pt := schema.LangEN, schema.LangPT
	p, li, row := schema.ElementParagraph, schema.ElementListItem, schema.ElementTableRow
	return []schema.Chunk{
		fixtureChunk("safety/rules.md", en, 12, p, "Waves above 1.5 m are dangerous for beginners.\nWhen the wind exceeds 20 kn, the flags go red."),
		fixtureChunk("safety/rules.md", en, 20, li, "- Water between 15 and 18 °C can cause cold shock | act fast."),
		fixtureChunk("safety/regras.md", pt, 8, li, "- Ondas acima de 5 pés [1,52 m] são perigosas para iniciantes."),
		fixtureChunk("safety/regras.md", pt, 15, p, "Nade até 50 m da areia.\nMantenha pelo menos 30 metros das pedras."),
		fixtureChunk("beaches/mole.md", pt, 31, row, "Vento: acima de 20 nós\nÁgua: abaixo de 18 °C"),
		fixtureChunk("beaches/mole.md", pt, 40, p, "Ondas de 1 a 2 m no verão; ligue 193 em 2024."),
		// A bound after the number, past its restatement, and a range.
		fixtureChunk("safety/rules.md", en, 24, p, "Gusts of 35 knots (about 65 km/h) or more make it unsafe to launch a kite."),
		fixtureChunk("safety/regras.md", pt, 20, li, "- Ondas de 1–2 m são ideais para iniciantes."),
		// Comparators that state no limit: a measurement, history, a
		// comparison, a description, a fact; none is in the golden.
		fixtureChunk("beaches/mole.md", en, 44, p, "The pier is more than 300 m long."),
		fixtureChunk("beaches/mole.md", pt, 46, p, "Em 2024 houve aviso de ressaca com ondas de até 3,5 m."),
		fixtureChunk("beaches/mole.md", pt, 48, p, "A diferença entre o norte e o leste pode passar de 3 °C."),
		fixtureChunk("safety/rules.md", en, 30, p, "The sea is usually below 20 °C in winter."),
		fixtureChunk("safety/rules.md", en, 32, p, "The strongest rip currents move at up to 8 ft per second."),
		fixtureChunk("beaches/mole.md", pt, 50, row, "Mês: Outubro; Observação: Nordeste mais constante, com água entre 18 e 19 °C."),
	}
}

// conflictChunks disagree: two documents give different bounds for the
// same subject and comparator.
func conflictChunks() []schema.Chunk {
	en, pt := schema.LangEN, schema.LangPT
	p := schema.ElementParagraph
	return []schema.Chunk{
		fixtureChunk("safety/rules.md", en, 3, p, "Water below 18 °C brings a risk of hypothermia."),
		fixtureChunk("beaches/campeche.md", pt, 9, p, "Água abaixo de 16 °C traz risco de hipotermia."),
		fixtureChunk("beaches/joaquina.md", pt, 5, p, "Com a água abaixo dos 18 °C, use roupa de borracha."),
		fixtureChunk("safety/rules.md", en, 7, p, "Wind above 25 knots closes the beach to kites."),
		fixtureChunk("beaches/campeche.md", pt, 14, p, "Vento acima de 20 nós é perigoso para o kite."),
		fixtureChunk("beaches/campeche.md", pt, 20, p, "Ondas acima de 2 m fecham a praia."),
		fixtureChunk("beaches/campeche.md", pt, 22, p, "Ondas acima de 3 m só para surfistas experientes."),
		// A range and the bounds of other documents: 2 m is its upper end
		// and 1.5 m lies inside it (no conflict), 3 m lies outside.
		fixtureChunk("safety/rules.md", en, 11, p, "A swell between 1 and 2 m suits beginners."),
		fixtureChunk("beaches/joaquina.md", pt, 12, p, "Ondas acima de 1,5 m são perigosas para iniciantes."),
		// A document's own range and bound do not conflict: 25 °C is
		// outside 16–19 °C, but only joaquina.md gives either.
		fixtureChunk("beaches/joaquina.md", pt, 14, p, "Para surfar com a água entre 16 e 19 °C, use roupa de borracha de 3 mm."),
		fixtureChunk("beaches/joaquina.md", pt, 16, p, "Com água acima de 25 °C, beba água e evite o sol."),
	}
}

// repeatedChunks state one value in 8 places and a conflicting one in 7:
// more than MaxExamples each, so the proposal lists the first five places
// of each value in Sort's order and counts the rest.
func repeatedChunks() []schema.Chunk {
	var cs []schema.Chunk
	for i := range 8 {
		cs = append(cs, fixtureChunk(fmt.Sprintf("beaches/b%d.md", 7-i), schema.LangEN, 3+i, schema.ElementParagraph, "Waves above 1.5 m are dangerous for beginners."))
	}
	for i := range 7 {
		cs = append(cs, fixtureChunk(fmt.Sprintf("praias/p%d.md", i), schema.LangPT, 10, schema.ElementParagraph, "Ondas acima de 2,5 m fecham a praia."))
	}
	return cs
}

func thresholdsOf(chunks []schema.Chunk) []schema.Threshold {
	var ts []schema.Threshold
	for _, c := range chunks {
		ts = append(ts, extract(c)...)
	}
	return ts
}

func TestWriteGolden(t *testing.T) {
	tests := []struct {
		name   string
		chunks []schema.Chunk
		golden string
	}{
		{"proposal", proposalChunks(), "proposal.golden.md"},
		{"conflict", conflictChunks(), "conflict.golden.md"},
		{"empty", nil, "empty.golden.md"},
		{"repeated", repeatedChunks(), "repeated.golden.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := thresholdsOf(tt.chunks)
			var got bytes.Buffer
			if err := Write(&got, ts); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tt.golden), got.Bytes())
			// Any input order gives the same bytes.
			slices.Reverse(ts)
			var again bytes.Buffer
			if err := Write(&again, ts); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Bytes(), got.Bytes()) {
				t.Errorf("got different bytes for the same thresholds in reverse order")
			}
		})
	}
}

func TestWriteSummary(t *testing.T) {
	tests := []struct {
		name   string
		chunks []schema.Chunk
		want   string
	}{
		{"proposal", proposalChunks(), "10 thresholds, 4 subjects, 0 conflicts."},
		{"conflict", conflictChunks(), "11 thresholds, 3 subjects, 4 conflicts."},
		{"repeated: every threshold counted, five places listed per value", repeatedChunks(), "15 thresholds, 1 subject, 1 conflict."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, thresholdsOf(tt.chunks)); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(b.String(), "\n"+tt.want+"\n") {
				t.Errorf("got\n%s\nwant a line %q", b.String(), tt.want)
			}
		})
	}
}

// TestWetsuitKind holds what the proposal does with a wetsuit's
// thickness (issue 32): a subject of its own, after the sea's, never a
// water depth that another document's depth conflicts with.
func TestWetsuitKind(t *testing.T) {
	en, pt, p := schema.LangEN, schema.LangPT, schema.ElementParagraph
	chunks := []schema.Chunk{
		fixtureChunk("gear/suits.md", en, 3, p, "Wear a wetsuit of at least 3 mm."),
		fixtureChunk("gear/roupas.md", pt, 5, p, "Use roupa de neoprene de pelo menos 3 mm."),
		fixtureChunk("safety/rules.md", en, 7, p, "Dive only where the water is 2 m deep or more."),
	}
	var b bytes.Buffer
	if err := Write(&b, thresholdsOf(chunks)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n3 thresholds, 2 subjects, 0 conflicts.\n",
		"\n## wetsuit_thickness\n",
		"| at_least | 3 mm → 0.003 m | [gear/roupas.md:5](gear/roupas.md#L5) |",
		"| at_least | 2 m → 2 m | [safety/rules.md:7](safety/rules.md#L7) |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("got\n%s\nwant it to hold %q", b.String(), want)
		}
	}
	if depth, suit := strings.Index(b.String(), "## water_depth"), strings.Index(b.String(), "## wetsuit_thickness"); depth < 0 || suit < depth {
		t.Errorf("got water_depth at %d and wetsuit_thickness at %d, want both, the suit's after", depth, suit)
	}
}

type failingWriter struct{}

var errDiskFull = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestWriteError(t *testing.T) {
	err := Write(failingWriter{}, thresholdsOf(proposalChunks()))
	if !errors.Is(err, errDiskFull) {
		t.Errorf("got %v, want an error wrapping %v", err, errDiskFull)
	}
}

func TestCellAndLink(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"pipe escaped", cell("a | b"), `a \| b`},
		{"newlines flattened", cell("a\nb\r\nc"), "a b c"},
		{"link", sourceLink(schema.Threshold{DocPath: "safety/rules.md", Line: 12}), "[safety/rules.md:12](safety/rules.md#L12)"},
		{"link with space", sourceLink(schema.Threshold{DocPath: "praias/lagoa (leste).md", Line: 3}),
			"[praias/lagoa (leste).md:3](praias/lagoa%20%28leste%29.md#L3)"},
		{"between value", siValue(schema.Threshold{Comparator: "between", Value: 15, Value2: 18, SIUnit: "degC"}), "15–18 degC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// TestOutside: a bound conflicts with a range only beyond the conflict
// tolerance of its ends.
func TestOutside(t *testing.T) {
	r := valueKey{value: 1, value2: 2}
	tests := []struct {
		name string
		v    float64
		want bool
	}{
		{"inside", 1.5, false},
		{"at the lower end", 1, false},
		{"at the upper end", 2, false},
		{"within the tolerance above", 2.03, false},
		{"within the tolerance below", 0.99, false},
		{"above", 3, true},
		{"below", 0.5, true},
		{"just beyond the tolerance", 2.05, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outside(tt.v, r); got != tt.want {
				t.Errorf("got outside(%v, 1–2) %v, want %v", tt.v, got, tt.want)
			}
		})
	}
}
