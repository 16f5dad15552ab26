package thresholds

import (
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/units"
)

func TestExtractFields(t *testing.T) {
	c := chunkOf("- Nade perto do posto.\n  Com vento acima\nde 20 nós, não entre no mar.", schema.LangPT)
	got := extract(c)
	if len(got) != 1 {
		t.Fatalf("got %d thresholds, want 1", len(got))
	}
	g := got[0]
	wantSentence := "Com vento acima de 20 nós, não entre no mar."
	checks := []struct {
		name      string
		got, want any
	}{
		{"sentence", g.Sentence, wantSentence},
		{"line", g.Line, 12},
		{"doc path", g.DocPath, "safety/rules.md"},
		{"content hash", g.ContentHash, "abc123"},
		{"lang", g.Lang, schema.LangPT},
		{"origin", g.Origin, "rule"},
		{"si unit", g.SIUnit, "m/s"},
		{"value2", g.Value2, 0.0},
		{"hazard", g.Hazard, ""},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	if !slices.Equal(g.SectionPath, []string{"Rules"}) {
		t.Errorf("section path: got %v, want [Rules]", g.SectionPath)
	}
	c.SectionPath[0] = "changed"
	if g.SectionPath[0] != "Rules" {
		t.Errorf("section path: got %v after changing the chunk's, want its own copy", g.SectionPath)
	}
}

func TestExtractLine(t *testing.T) {
	tests := []struct {
		name    string
		element schema.Element
		text    string
		want    []int
	}{
		{"first line", schema.ElementParagraph, "Waves above 2 m are dangerous.", []int{10}},
		{"third line", schema.ElementParagraph, "Rules.\n\nWaves above 2 m close the beach.\nWind above 20 kn is dangerous.", []int{12, 13}},
		{"table row keeps its line", schema.ElementTableRow, "Praia: Mole\nVento: acima de 25 nós", []int{10}},
		{"table cells of bounds", schema.ElementTableRow, "Praia: Mole; Vento: acima de 25 nós; Água: abaixo de 18 °C", []int{10, 10}},
		{"table cell of prose", schema.ElementTableRow, "Mês: Outubro; Observação: com água entre 18 e 19 °C", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := chunkOf(tt.text, schema.LangEN)
			c.Element = tt.element
			var got []int
			for _, th := range extract(c) {
				got = append(got, th.Line)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got lines %v, want %v", got, tt.want)
			}
		})
	}
}

// A quantity that does not belong to the chunk's text is skipped, not
// trusted: Extract must not slice out of range.
func TestExtractIgnoresForeignQuantities(t *testing.T) {
	c := chunkOf("Waves above 2 m.", schema.LangEN)
	qs := []units.Quantity{
		{Surface: "2 m", Start: 40, End: 43, EquivalentOf: -1},
		{Surface: "x", Start: 12, End: 15, EquivalentOf: -1},
		{Surface: "", Start: 3, End: 3, EquivalentOf: -1},
	}
	if got := Extract(c, qs); len(got) != 0 {
		t.Errorf("got %d thresholds, want 0", len(got))
	}
}

func TestSort(t *testing.T) {
	ts := []schema.Threshold{
		{Subject: SubjectUnknown, Comparator: "above", Value: 1, DocPath: "a.md", Line: 1},
		{Subject: SubjectWindSpeed, Comparator: "above", Value: 10, DocPath: "b.md", Line: 3},
		{Subject: SubjectWaveHeight, Comparator: "below", Value: 1, DocPath: "a.md", Line: 2},
		{Subject: SubjectWaveHeight, Comparator: "above", Value: 2, DocPath: "b.md", Line: 9},
		{Subject: SubjectWaveHeight, Comparator: "above", Value: 2, DocPath: "a.md", Line: 7},
		{Subject: SubjectWaveHeight, Comparator: "above", Value: 1.5, DocPath: "c.md", Line: 1},
		{Subject: SubjectAirTemperature, Comparator: "above", Value: 35, DocPath: "c.md", Line: 4},
	}
	Sort(ts)
	var got []string
	for _, th := range ts {
		got = append(got, th.Subject+" "+th.Comparator+" "+units.FormatSI(th.Value, "")+" "+th.DocPath)
	}
	want := []string{
		"air_temperature above 35 c.md",
		"wave_height above 1.5 c.md",
		"wave_height above 2 a.md",
		"wave_height above 2 b.md",
		"wave_height below 1 a.md",
		"wind_speed above 10 b.md",
		"unknown above 1 a.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got order\n%v\nwant\n%v", got, want)
	}
}

// TestHazardIn checks the hazard phrase is cut from the sentence itself even
// where lower-casing changes lengths elsewhere in it.
func TestHazardIn(t *testing.T) {
	tests := []struct{ name, sentence, want string }{
		{"plain", "Waves above 2 m are dangerous for beginners.", "dangerous for beginners"},
		{"upper case", "ÁGUA ABAIXO DE 16 °C: RISCO DE HIPOTERMIA", "RISCO DE HIPOTERMIA"},
		{"dotted capital before", "İzmir: waves above 2 m are dangerous.", "dangerous"},
		{"invalid byte before", "acima de 0 nó\x9e\x9eperigo", "perigo"},
		{"none", "Waves of 2 m today.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := hazardIn(tt.sentence); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
