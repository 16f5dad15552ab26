package thresholds

import (
	"math"
	"testing"

	"github.com/ocean-safety/ingest/schema"
)

// TestGround: a model's threshold is kept only where the text holds its
// value, and a between only where its value opens a range of the text,
// whose upper end it takes; what the rules stated is not repeated.
func TestGround(t *testing.T) {
	const knot = 1852.0 / 3600
	tests := []struct {
		name     string
		lang     schema.Lang
		text     string
		proposed schema.ProposedThreshold
		// want is the kept threshold's comparator, values and surface; ""
		// when it is ungrounded, "stated" when the rules have it.
		want           string
		value, value2  float64
		surface        string
		wantUngrounded bool
	}{
		{"above", schema.LangEN, "Surf is fun; waves reach 2 m at the point.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "above", Value: 2, Unit: "m"}, "above", 2, 0, "2 m", false},
		{"between a range", schema.LangEN, "Surf lessons run in waves of 1–2 m at the point.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "between", Value: 1, Unit: "m"}, "between", 1, 2, "1–2 m", false},
		{"between a range in Portuguese", schema.LangPT, "As aulas acontecem com vento de 12 a 20 nós na lagoa.",
			schema.ProposedThreshold{Subject: "wind_speed", Comparator: "between", Value: 12, Unit: "knots"}, "between", 12 * knot, 20 * knot, "12 a 20 nós", false},
		{"between the upper end", schema.LangEN, "Surf lessons run in waves of 1–2 m at the point.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "between", Value: 2, Unit: "m"}, "", 0, 0, "", true},
		{"between no range", schema.LangEN, "Surf lessons run in waves of 1 m at the point.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "between", Value: 1, Unit: "m"}, "", 0, 0, "", true},
		{"between a number not in the text", schema.LangEN, "Surf lessons run in waves of 1–2 m at the point.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "between", Value: 1.5, Unit: "m"}, "", 0, 0, "", true},
		{"between stated by the rules", schema.LangEN, "Waves of 1–2 m are ideal for a first lesson.",
			schema.ProposedThreshold{Subject: "wave_height", Comparator: "between", Value: 1, Unit: "m"}, "stated", 0, 0, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := schema.Chunk{DocPath: "safety/rules.md", Order: 2, Lang: tt.lang, Element: schema.ElementParagraph, Text: tt.text, LineStart: 7}
			Normaliser{}.Normalise(&c)
			got, ungrounded := Ground(c, []schema.ProposedThreshold{tt.proposed})
			if (len(ungrounded) == 1) != tt.wantUngrounded {
				t.Fatalf("got ungrounded %+v, want ungrounded %v", ungrounded, tt.wantUngrounded)
			}
			switch tt.want {
			case "", "stated":
				if len(got) != 0 {
					t.Fatalf("got %+v, want nothing kept", got)
				}
				if tt.want == "stated" && len(c.Thresholds) != 1 {
					t.Fatalf("got rule thresholds %+v, want the one the model repeats", c.Thresholds)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("got %d thresholds %+v, want 1", len(got), got)
			}
			g := got[0]
			if g.Comparator != tt.want || math.Abs(g.Value-tt.value) > 1e-9 || math.Abs(g.Value2-tt.value2) > 1e-9 || g.Surface != tt.surface {
				t.Errorf("got %s %v %v %q, want %s %v %v %q", g.Comparator, g.Value, g.Value2, g.Surface, tt.want, tt.value, tt.value2, tt.surface)
			}
			if g.Origin != "model" || g.Line != 7 || g.Subject != tt.proposed.Subject {
				t.Errorf("got origin %q line %d subject %q, want model, 7, %q", g.Origin, g.Line, g.Subject, tt.proposed.Subject)
			}
		})
	}
}
