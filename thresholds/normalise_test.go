package thresholds

import (
	"math"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/markdown"
	"github.com/ocean-safety/ingest/text/lexical"
)

func TestNormalise(t *testing.T) {
	tests := []struct {
		name       string
		doc        string
		wantSI     []float64 // SI values of the first chunk's quantities, in order
		wantUnit   string    // SI unit of the first quantity
		wantThresh string    // subject/comparator of the first threshold, or ""
		wantSuffix string    // in the embed input
	}{
		{
			name:       "feet with metres",
			doc:        "# W\nSource: https://x\n\nWaves above 5 ft (1.5 m) are dangerous for beginners.\n",
			wantSI:     []float64{1.524, 1.5},
			wantUnit:   "m",
			wantThresh: "wave_height/above",
			wantSuffix: "5 ft [1.52 m]",
		},
		{
			name:       "portuguese knots",
			doc:        "# V\nSource: https://x\nLang: pt\n\nNão entre no mar com ventos acima de 25 nós.\n",
			wantSI:     []float64{25 * 1852.0 / 3600},
			wantUnit:   "m/s",
			wantThresh: "wind_speed/above",
			wantSuffix: "25 nós [12.86 m/s]",
		},
		{
			name:     "table cell takes the header's unit",
			doc:      "# T\nSource: https://x\nKind: structured\nLang: pt\n\n| Mês | Água (°F) |\n|---|---|\n| Julho | 61 |\n",
			wantSI:   []float64{(61 - 32) * 5.0 / 9},
			wantUnit: "degC",
		},
		{
			name:   "distractors only",
			doc:    "# E\nSource: https://x\n\nCall 193 or 192; since 2019 at 10:30.\n",
			wantSI: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := markdown.New(corpus.Options{}).Parse("d.md", []byte(tt.doc))
			ch, _ := chunking.NewChunker(chunking.DefaultConfig(), "")
			chunks, _ := ch.Chunk(p.Body)
			if len(chunks) == 0 {
				t.Fatalf("no chunks: %v", p.Diags)
			}
			c := chunks[0]
			Normaliser{}.Normalise(&c)
			if len(c.Quantities) != len(tt.wantSI) {
				t.Fatalf("got quantities %+v, want %d", c.Quantities, len(tt.wantSI))
			}
			for i, q := range c.Quantities {
				if math.Abs(q.SIValue-tt.wantSI[i]) > 1e-9 {
					t.Errorf("quantity %d: got SI %v, want %v", i, q.SIValue, tt.wantSI[i])
				}
				if c.Text[q.Start:q.End] != q.Surface {
					t.Errorf("quantity %d: span %q, surface %q", i, c.Text[q.Start:q.End], q.Surface)
				}
			}
			if len(tt.wantSI) > 0 && c.Quantities[0].SIUnit != tt.wantUnit {
				t.Errorf("got SI unit %s, want %s", c.Quantities[0].SIUnit, tt.wantUnit)
			}
			gotThresh := ""
			if len(c.Thresholds) > 0 {
				gotThresh = c.Thresholds[0].Subject + "/" + c.Thresholds[0].Comparator
			}
			if gotThresh != tt.wantThresh {
				t.Errorf("got threshold %q, want %q", gotThresh, tt.wantThresh)
			}
			if in := lexical.EmbedInput(c); !strings.Contains(in, tt.wantSuffix) || !strings.Contains(in, c.Text) {
				t.Errorf("embed input %q: want the verbatim text and %q", in, tt.wantSuffix)
			}
		})
	}
}
