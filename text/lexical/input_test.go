package lexical

import (
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestEmbeddedInput: a row of this schema is keyed by the search text it
// stored, one written before it by the text it then embedded, verbatim; a
// new chunk's EmbedInput meets the old key only where Clean changes nothing.
func TestEmbeddedInput(t *testing.T) {
	q := []schema.Quantity{{Surface: "5 ft", Unit: "ft", SIValue: 1.524, SIUnit: "m"}}
	tests := []struct {
		name      string
		row       schema.Chunk
		want      string
		sameAsNew bool // EmbedInput of the same chunk, cleaned now, is the key
	}{
		{"schema 5: its search_text", schema.Chunk{SectionPath: []string{"A"}, ContextHeader: "H", Text: "see [x](y)", SearchText: "A › H\n\nsee x"},
			"A › H\n\nsee x", true},
		{"schema 5 with quantities", schema.Chunk{ContextHeader: "H", Text: "waves of 5 ft", SearchText: "H\n\nwaves of 5 ft", Quantities: q},
			"H\n\nwaves of 5 ft\n\n5 ft [1.52 m]", true},
		{"schema 4, clean text: the same key", schema.Chunk{SectionPath: []string{"A"}, ContextHeader: "H", Text: "plain words"},
			"A › H\n\nplain words", true},
		{"schema 4, a link: the verbatim key", schema.Chunk{ContextHeader: "H", Text: "see [x](y)"},
			"H\n\nsee [x](y)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := EmbeddedInput(tt.row)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if same := got == EmbedInput(tt.row); same != tt.sameAsNew {
				t.Errorf("got EmbedInput %q (same as the row's key: %v), want same %v", EmbedInput(tt.row), same, tt.sameAsNew)
			}
		})
	}
}

// TestEmbedInput: the search text, then the canonical quantities.
func TestEmbedInput(t *testing.T) {
	c := schema.Chunk{SectionPath: []string{"Surf"}, ContextHeader: "H", Text: "## Size\nWaves of 5 ft.",
		Quantities: []schema.Quantity{{Surface: "5 ft", Unit: "ft", SIValue: 1.524, SIUnit: "m"}}}
	if got, want := EmbedInput(c), "Surf › H\n\nSize\nWaves of 5 ft.\n\n5 ft [1.52 m]"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
