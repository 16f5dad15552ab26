package remote

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/prompt"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/stagestest"
	"github.com/ocean-safety/ingest/text/lexical"
)

// TestHeaderDocumentCap checks that a long document is cut in the prompt,
// shorter for a long chunk or a model with a small window, that a chunk is
// cut only when it does not fit alone, and that every prompt fits the
// window with room for the answer and a repair round.
func TestHeaderDocumentCap(t *testing.T) {
	doc, c := stagestest.RipDoc()
	doc.Text += strings.Repeat("Sand and sea. ", 1000)
	long := c
	long.Text = strings.Repeat("Waves break on the bar at low tide. ", 300) // about 3,300 tokens
	huge := c
	huge.Text = strings.Repeat("Waves break on the bar at low tide. ", 2000)
	tests := []struct {
		name       string
		window     int
		chunk      schema.Chunk
		wantDocMax int  // runes of document in the prompt, at most
		wantDocMin int  // and at least
		wantCut    bool // the chunk cut
	}{
		{"window unknown", 0, c, prompt.PromptDocChars, prompt.PromptDocChars, false},
		{"large window", 32768, c, prompt.PromptDocChars, prompt.PromptDocChars, false},
		{"long chunk: less of the document", 0, long, 5000, 100, false},
		{"huge chunk: cut, no document", 0, huge, 0, 0, true},
		{"small window", 4096, c, 5000, 1000, false},
		{"tiny window: nothing fits", 1024, c, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &ModelHeaders{window: prompt.ChatWindow(tc.window), system: prompt.SystemPrompt(models.DefaultHeaderChars, false)}
			var pc prompt.PrepCache
			p := h.userMessage(pc.Get(doc), doc, tc.chunk)
			body := p[strings.Index(p, "Title: "):strings.Index(p, "</document-")]
			n := utf8.RuneCountInString(body) - utf8.RuneCountInString("Title: "+doc.Title+"\n\n")
			if n > tc.wantDocMax+len("\n[document cut here]\n") || n < tc.wantDocMin || !capChunkLast.MatchString(p) {
				t.Errorf("got %d document runes in the prompt, want %d to %d, with the chunk last", n, tc.wantDocMin, tc.wantDocMax)
			}
			if got := strings.Contains(p, prompt.ChunkCut); got != tc.wantCut {
				t.Errorf("got chunk cut %v, want %v", got, tc.wantCut)
			}
			need := lexical.ApproxTokens{}.Count(h.system) + lexical.ApproxTokens{}.Count(p) + 3*prompt.AnswerTokens
			fits := 3*prompt.AnswerTokens+(lexical.ApproxTokens{}).Count(h.system) < h.window*4/5 // else nothing fits
			if fits && need*5/4 > h.window {
				t.Errorf("got a prompt of %d tokens with the answer's room, want at most %d (four fifths of the window %d)", need, h.window*4/5, h.window)
			}
		})
	}
}

// capChunkLast matches a prompt that ends with the fenced chunk (chunkLast).
var capChunkLast = regexp.MustCompile(`(?s)<chunk-([0-9a-f]{12})>\n.*\n</chunk-([0-9a-f]{12})>$`)
