package markdown

import (
	"github.com/ocean-safety/ingest/chunking"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/sentence"
)

// checkInvariants asserts the chunking properties that hold for every
// document: text verbatim, nothing dropped, within budget unless oversize,
// never cut mid-sentence, kind rules kept.
func checkInvariants(t *testing.T, ch *chunking.Chunker, p corpus.Parsed, chunks []schema.Chunk) {
	t.Helper()
	doc := p.Doc
	body := p.Body
	if err := body.Check(); err != nil {
		t.Fatalf("%s: the body breaks its contract: %v", doc.Path, err)
	}
	covered := make([]bool, len(doc.Text))
	sections := map[string]bool{}
	var rows strings.Builder // every table row's rendered text
	for _, c := range chunks {
		if c.Element == schema.ElementTableRow {
			rows.WriteString(c.Text + "\n")
		}
		if c.ByteStart < doc.ContentStart || c.ByteEnd > len(doc.Text) || c.ByteStart >= c.ByteEnd {
			t.Fatalf("chunk %d: span %d-%d outside content %d-%d", c.Order, c.ByteStart, c.ByteEnd, doc.ContentStart, len(doc.Text))
		}
		vs, ve := body.ViewSpan(c.ByteStart, c.ByteEnd)
		for i := vs; i < ve; i++ {
			covered[i] = true
		}
		for _, s := range c.SectionPath {
			sections[s] = true
		}
		src := doc.Text[c.ByteStart:c.ByteEnd]
		if c.Element == schema.ElementTableRow {
			if !strings.HasPrefix(strings.TrimSpace(src), "|") && !strings.Contains(src, "|") {
				t.Errorf("chunk %d: table row span %q is not a table row", c.Order, src)
			}
			if want := schema.ChunkKind(doc.Kind, c.Element); c.Kind != want {
				t.Errorf("chunk %d: got kind %s for a table row, want %s", c.Order, c.Kind, want)
			}
		} else if want := body.Words(vs, ve); c.Text != want {
			t.Errorf("chunk %d: got text %q, want the source span without its markup %q", c.Order, c.Text, want)
		}
		if !c.Element.Valid() {
			t.Errorf("chunk %d: element %q not in the closed set", c.Order, c.Element)
		}
		if n := ch.Measure(c.Text); n > ch.Config().Max && !c.Oversize {
			t.Errorf("chunk %d: %d over the budget %d and not marked oversize", c.Order, n, ch.Config().Max)
		}
		if c.Oversize && c.Element != schema.ElementCodeBlock && c.Element != schema.ElementTableRow && c.Element != schema.ElementSectionHeading {
			if ss := sentence.Split(c.Text); len(ss) != 1 {
				t.Errorf("chunk %d: oversize but holds %d sentences, want 1", c.Order, len(ss))
			}
		}
		if body.CutInside(c.Element, vs, ve) {
			t.Errorf("chunk %d ends mid-sentence: %q", c.Order, c.Text)
		}
		rules := doc.Kind.Rules()
		if c.Element != schema.ElementTableRow && c.Kind != doc.Kind {
			t.Errorf("chunk %d: got kind %s, want its document's %s", c.Order, c.Kind, doc.Kind)
		}
		if c.Safety != rules.Safety {
			t.Errorf("chunk %d of a %s document: got safety %v, want %v", c.Order, doc.Kind, c.Safety, rules.Safety)
		}
		wantBeach := "" // a beach's id only on the chunks of a kind tied to one
		if rules.Beach {
			wantBeach = doc.BeachID
		}
		if c.BeachID != wantBeach {
			t.Errorf("chunk %d of a %s document: got beach %q, want %q", c.Order, doc.Kind, c.BeachID, wantBeach)
		}
		if rules.Cut == schema.CutBlock && len(ruleMarkerRe.FindAllString(c.Text, -1)) > 1 {
			t.Errorf("chunk %d: blocks of a %s document merged: %q", c.Order, doc.Kind, c.Text)
		}
	}
	for i, r := range body.Removed { // markup is accounted for by being removed
		covered[i] = covered[i] || r
	}
	checkNothingDropped(t, body, covered, sections, rows.String())
}

// checkNothingDropped asserts every content line is in a chunk, or is a
// heading found in the section paths, a table delimiter or a rule.
func checkNothingDropped(t *testing.T, p *chunking.Body, covered []bool, sections map[string]bool, rows string) {
	t.Helper()
	off := p.Doc.ContentStart
	lines := strings.SplitAfter(p.View[off:], "\n") // with markup blanked: an image's alt text stands in its tag
	for i, line := range lines {
		start := off
		off += len(line)
		body := strings.TrimSpace(line)
		if body == "" || isDelimiterRow(body) || strings.Trim(body, "-=*_ ") == "" || !chunking.HasWords(body) {
			continue
		}
		if allCovered(line, covered[start:start+len(line)]) {
			continue
		}
		next := ""
		if i+1 < len(lines) {
			next = strings.TrimSpace(lines[i+1])
		}
		heading := strings.TrimSpace(strings.TrimLeft(body, "#"))
		if strings.HasPrefix(body, "#") || next != "" && strings.Trim(next, "=-") == "" {
			if sections[plain(heading)] {
				continue
			}
		}
		if strings.Contains(body, "|") && headerInRows(body, rows) {
			continue
		}
		t.Errorf("line %q dropped: in no chunk and no section path", body)
	}
}

// headerInRows reports whether every cell of a table header line is carried
// by the rendered rows ("Header: value").
func headerInRows(line, rows string) bool {
	for _, cell := range strings.Split(strings.Trim(line, "| "), "|") {
		if c := plain(strings.TrimSpace(cell)); c != "" && !strings.Contains(rows, c+": ") {
			return false
		}
	}
	return rows != ""
}

func allCovered(line string, cov []bool) bool {
	for i, r := range line {
		if !unicode.IsSpace(r) && !cov[i] {
			return false
		}
	}
	return true
}

func isDelimiterRow(s string) bool { return strings.Contains(s, "-") && strings.Trim(s, "|:- ") == "" }

// plain drops inline markup the way a section path does.
func plain(s string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("*", "", "`", "", "_", "").Replace(s)), " ")
}

// TestInvariantsOnShippedCorpus checks the properties on every document of the
// shipped corpus at the default budget and at a small one that forces splits.
func TestInvariantsOnShippedCorpus(t *testing.T) {
	root := "../../corpus/ocean"
	paths, _, err := corpus.Scan(root, markdownOnly)
	if err != nil || len(paths) == 0 {
		t.Fatalf("scan %s: %v (%d docs)", root, err, len(paths))
	}
	for _, cfg := range []chunking.Config{
		{Unit: "chars", Max: 700},
		{Unit: "chars", Max: 120, Min: 60, Overlap: 50},
		{Unit: "tokens", Max: 40},
	} {
		ch, err := chunking.NewChunker(cfg, "")
		if err != nil {
			t.Fatal(err)
		}
		p := markdownOnly.Reader(root, corpus.Options{})
		for _, path := range paths {
			raw, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				t.Fatal(err)
			}
			parsed := p.ParseBytes(path, raw)
			if parsed.Rejected {
				t.Errorf("%s rejected: %v", path, parsed.Diags)
				continue
			}
			chunks, _ := ch.Chunk(parsed.Body)
			if len(chunks) == 0 {
				t.Errorf("%s: no chunks", path)
			}
			checkInvariants(t, ch, parsed, chunks)
		}
	}
}

// ruleMarkerRe is the marker of a top-level list item: a chunk of a block
// cut (a safety rule) holds one block, so at most one.
var ruleMarkerRe = regexp.MustCompile(`(?m)^(?:[-*+]|\d{1,9}[.)])\s`)
