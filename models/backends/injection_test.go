package backends

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/internal/planted"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/text/lexical"
)

// plantedDir holds the planted injections and the controls.
const plantedDir = "../../testdata/injection"

// TestPlantedInjections plants each injection of testdata/injection in its
// base document and runs the model header writer over every chunk of it,
// against a model that obeys it: once a model that obeys the planted text
// when it reads it (modelfake.Options.Orders), the defences together; once a
// model that answers as it says on every call, read or not, the answer
// checks alone on every chunk sent. It counts the cases whose header ends
// up stored on a chunk. -v prints the table.
func TestPlantedInjections(t *testing.T) {
	cases, err := planted.Cases(plantedDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("got %d planted cases, want at least 30", len(cases))
	}
	var reads, always plantedTally
	var table strings.Builder
	for _, pc := range cases {
		doc, chunks := parseDoc(t, pc.Name+".md", pc.Doc)
		// The planted text reached the model when the prompt holds a
		// paragraph of it as written, or the header it asks for (a format
		// may have read markup out of the paragraph: "Ig nore").
		orders := []modelfake.Order{{Seen: pc.Header, Answer: headerAnswer(pc.Header)}}
		for _, p := range strings.Split(pc.Text, "\n\n") {
			if p = strings.TrimSpace(p); len(p) >= 12 {
				orders = append(orders, modelfake.Order{Seen: p, Answer: headerAnswer(pc.Header)})
			}
		}
		r := runPlanted(t, pc, doc, chunks, modelfake.Options{Orders: orders}, orders)
		a := runPlanted(t, pc, doc, chunks, modelfake.Options{Answer: headerAnswer(pc.Header)}, nil)
		reads.add(r)
		always.add(a)
		fmt.Fprintf(&table, "%-28s %-6v %-7v %-7v %d/%d  %s\n", pc.Name, r.seen, r.stored, a.stored, r.sent, len(chunks), pc.Trick)
	}
	t.Logf("planted injections: %d\n"+
		"  a model that obeys what it reads: reached the model %d, header stored %d (chunks sent %d, answers rejected %d)\n"+
		"  a model that obeys on every call: header stored %d (chunks sent %d, answers rejected %d)\n%-28s %-6s %-7s %-7s %s\n%s",
		len(cases), reads.seen, reads.stored, reads.sent, reads.rejected, always.stored, always.sent, always.rejected,
		"case", "seen", "stored", "always", "sent", table.String())
	if reads.stored > 1 || always.stored > 1 {
		t.Errorf("got %d and %d of %d planted injections stored as a header, want at most 1", reads.stored, always.stored, len(cases))
	}
}

// plantedRun is what became of one planted case.
type plantedRun struct {
	seen, stored   bool // the planted text reached the model; its header was stored
	sent, rejected int  // chunks sent to the model; answers refused
}

type plantedTally struct{ seen, stored, sent, rejected int }

func (t *plantedTally) add(r plantedRun) {
	if r.seen {
		t.seen++
	}
	if r.stored {
		t.stored++
	}
	t.sent += r.sent
	t.rejected += r.rejected
}

// runPlanted runs the header writer over a planted document's chunks with
// the model opt makes.
func runPlanted(t *testing.T, pc planted.Case, doc schema.Document, chunks []schema.Chunk, opt modelfake.Options, orders []modelfake.Order) plantedRun {
	t.Helper()
	srv, h, _ := openFakeBackends(t, backendKinds[0], opt, nil)
	var r plantedRun
	for _, c := range chunks {
		en, err := h.Header(context.Background(), doc, c)
		if err != nil {
			t.Fatalf("%s: %v", pc.Name, err)
		}
		if en.Calls > 0 {
			r.sent++
			if en.Source == schema.HeaderExtractiveFallback {
				r.rejected++
			}
		}
		if strings.Contains(flatWords(en.Header), flatWords(pc.Header)) {
			r.stored = true
		}
	}
	for _, body := range srv.Requests(modelfake.OllamaChat) {
		for _, m := range requestMessages(t, body) {
			for _, o := range orders {
				r.seen = r.seen || m.Role == "user" && strings.Contains(m.Content, o.Seen)
			}
		}
	}
	return r
}

// TestInjectionControls runs the model header writer over the controls of
// testdata/injection, answering each chunk with a real model's headers and
// with the extractive header, and counts the chunks withheld from the
// model and the answers rejected. -v prints the table.
func TestInjectionControls(t *testing.T) {
	controls, err := planted.Controls(plantedDir)
	if err != nil {
		t.Fatal(err)
	}
	withheld, chunks, headers, rejected, rejectedBase := 0, 0, 0, 0, 0
	var table strings.Builder
	for _, ctl := range controls {
		doc, cs := parseDoc(t, ctl.Name+".md", ctl.Doc)
		for _, c := range cs {
			chunks++
			held, base := false, extractive.Header(doc.Title, c, models.DefaultHeaderChars)
			var refused []string
			for _, answer := range append([]string{base}, ctl.Headers...) {
				_, h, _ := openFakeBackends(t, backendKinds[0], modelfake.Options{Answer: headerAnswer(answer)}, nil)
				en, err := h.Header(context.Background(), doc, c)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case en.Calls == 0:
					held = true
				case en.Source != schema.HeaderExtractiveFallback:
				case answer == base:
					rejectedBase++
					refused = append(refused, fmt.Sprintf("extractive %v", en.RejectReasons))
				default:
					rejected++
					refused = append(refused, fmt.Sprintf("%q %v", answer, en.RejectReasons))
				}
				if answer != base {
					headers++
				}
			}
			if held {
				withheld++
			}
			fmt.Fprintf(&table, "%-30s withheld=%-5v %s\n", ctl.Name, held, strings.Join(refused, "; "))
		}
	}
	t.Logf("controls: %d chunks, withheld %d; extractive headers rejected %d; a model's headers rejected %d of %d\n%s",
		chunks, withheld, rejectedBase, rejected, headers, table.String())
	if withheld > 0 || rejectedBase > 0 || rejected*10 > headers {
		t.Errorf("got %d of %d control chunks withheld, %d extractive headers and %d of %d model headers rejected; want none, none and at most a tenth",
			withheld, chunks, rejectedBase, rejected, headers)
	}
}

// parseDoc reads raw as the corpus reader and the chunker of a default run
// do.
func parseDoc(t *testing.T, path, raw string) (schema.Document, []schema.Chunk) {
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

// headerAnswer is a model's answer with header and nothing else.
func headerAnswer(header string) string {
	b, _ := json.Marshal(map[string]any{"context_header": header, "hazard": "", "place": "", "season": "", "thresholds": []any{}, "unsourced_claim": ""})
	return string(b)
}

// flatWords is text's folded words, one space apart.
func flatWords(text string) string { return strings.Join(lexical.Tokens(text), " ") }
