package search

import (
	"slices"
	"testing"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestFields: BM25 reads a chunk's text as a reader sees it, from its
// search_text when the snapshot has one: no link target, no heading hash;
// its context (section path, header) at contextWeight.
func TestFields(t *testing.T) {
	base := schema.Chunk{Lang: schema.LangEN, SectionPath: []string{"Collector"}, ContextHeader: "Docs › Collector: setup."}
	tests := []struct {
		name       string
		text       string
		stored     string // the snapshot's search_text ("": before schema 5)
		has, lacks []string
		weight     map[string]float64
	}{
		{"a link's target is no term", "See the [registry](/ecosystem/registry/?s=kafka).", "", []string{"registri"}, []string{"ecosystem", "kafka"}, nil},
		{"a heading's words are, once", "### Exporters\nSend data.", "", []string{"export", "send"}, nil, map[string]float64{"export": 1}},
		{"the context at its weight", "Send data.", "", nil, nil, map[string]float64{"collector": 2 * contextWeight, "setup": contextWeight, "send": 1}},
		{"the stored search_text is what is read", "Send [data](/kafka).", "Collector › Docs › Collector: setup.\n\nSend data zipkin.", []string{"zipkin"}, []string{"kafka"}, nil},
		{"a search_text of another context is split where joined", "Send data.", "Other header\n\nSend data.", []string{"header"}, []string{"setup"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.Text, c.SearchText = tt.text, tt.stored
			tf, _ := fields(lexical.NewStemmer(schema.LangEN), c)
			var terms []string
			for term := range tf {
				terms = append(terms, term)
			}
			slices.Sort(terms)
			for _, term := range tt.has {
				if tf[term] == 0 {
					t.Errorf("got terms %v, want %q among them", terms, term)
				}
			}
			for _, term := range tt.lacks {
				if tf[term] != 0 {
					t.Errorf("got terms %v, want no %q", terms, term)
				}
			}
			for term, w := range tt.weight {
				if tf[term] != w {
					t.Errorf("got %q weighted %v, want %v", term, tf[term], w)
				}
			}
		})
	}
}
