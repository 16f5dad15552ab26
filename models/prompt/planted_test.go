package prompt

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/internal/planted"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/settings"
)

const plantedDir = "../../testdata/injection"

// TestAnswerChecksAlone measures the answer checks without the detection
// in front of them: every planted injection goes to the model as written,
// and the model answers every chunk of its document with the header the
// injection asks for. A chunk that does not hold the planted text must
// refuse it (the header reassures where the chunk does not, or is not the
// document's words); a chunk that holds it may not, since the claim is
// then in its text, which is what detection is for. -v prints the counts.
func TestAnswerChecksAlone(t *testing.T) {
	defer func(d func(string) bool) { detect = d }(detect)
	detect = func(string) bool { return false }
	cases, err := planted.Cases(plantedDir)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, inPlace, chunks := 0, 0, 0
	var table strings.Builder
	for _, pc := range cases {
		doc, cs := parsePlanted(t, pc.Name+".md", pc.Doc)
		b, _ := json.Marshal(map[string]string{"context_header": pc.Header})
		var where []string
		for _, c := range cs {
			if c.Element == schema.ElementTableRow {
				continue // never sent
			}
			chunks++
			_, err := ParseAnswer(string(b), models.DefaultHeaderChars, NewEvidence(doc, c))
			switch holds := holdsAny(doc.Text[c.ByteStart:c.ByteEnd], pc.Text); {
			case err != nil:
				where = append(where, "-")
			case holds:
				inPlace++
				where = append(where, "planted")
			default:
				elsewhere++
				where = append(where, "ACCEPTED")
				t.Errorf("%s: chunk %d accepted %q, which only the planted text says", pc.Name, c.Order, pc.Header)
			}
		}
		fmt.Fprintf(&table, "%-28s %s\n", pc.Name, strings.Join(where, " "))
	}
	t.Logf("answer checks alone: %d planted cases, %d chunks; the header accepted on the chunk holding the planted text %d times, elsewhere %d\n%s",
		len(cases), chunks, inPlace, elsewhere, table.String())
}

// holdsAny reports whether chunk holds the first line of a paragraph of
// text.
func holdsAny(chunk, text string) bool {
	for _, p := range strings.Split(text, "\n\n") {
		if l, _, _ := strings.Cut(p, "\n"); l != "" && strings.Contains(chunk, l) {
			return true
		}
	}
	return false
}

// parsePlanted reads a document as a default run does.
func parsePlanted(t *testing.T, path, raw string) (schema.Document, []schema.Chunk) {
	t.Helper()
	cfg := settings.DefaultConfig()
	cfg.Corpus = plantedDir
	parsed := formats.All.Reader(cfg.Corpus, cfg.CorpusOptions()).ParseBytes(path, []byte(raw))
	if parsed.Rejected {
		t.Fatalf("%s: rejected: %v", path, parsed.Diags)
	}
	ch, err := chunking.NewChunker(cfg.Chunk, "")
	if err != nil {
		t.Fatal(err)
	}
	chunks, _ := ch.Chunk(parsed.Body)
	return parsed.Doc, chunks
}
