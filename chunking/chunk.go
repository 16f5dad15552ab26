package chunking

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Chunker cuts a parsed document into chunks by its kind's rules
// (schema.KindRules): by heading section with paragraphs merged up to the
// budget (prose), or one block per chunk (a safety rule, a lore paragraph);
// tables one row per chunk, code whole. A chunk never ends inside a sentence.
type Chunker struct {
	cfg    Config
	size   lexical.Counter // measures the budget
	tokens lexical.Counter // fills token_count
	tenant string
}

// NewChunker checks cfg and returns a chunker. tenant goes into chunk ids.
func NewChunker(cfg Config, tenant string) (*Chunker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.Resolved()
	return &Chunker{cfg: cfg, size: lexical.NewCounter(cfg.Unit), tokens: lexical.ApproxTokens{}, tenant: tenant}, nil
}

// Tokenizer names the counter behind token_count, for the manifest.
func (c *Chunker) Tokenizer() string { return c.tokens.Name() }

// Chunk cuts a body into chunks with their identities filled in, and
// returns the diagnostics chunking raised (tables in prose, oversize
// sentences) after the format's own.
func (c *Chunker) Chunk(b *Body) ([]schema.Chunk, []schema.Diagnostic) {
	if b == nil {
		return nil, nil
	}
	doc := b.Doc
	var diags []schema.Diagnostic
	if doc.Kind.Rules().WarnTables {
		rows := schema.ChunkKind(doc.Kind, schema.ElementTableRow)
		for _, line := range b.Tables {
			diags = append(diags, schema.Diagnostic{Path: doc.Path, Line: line, Severity: schema.SeverityWarning,
				Code: "table-in-" + string(doc.Kind), Message: fmt.Sprintf("table in a %s document: emitted as table rows (%s chunks)", doc.Kind, rows)})
		}
	}
	diags = append(diags, b.Diags...)

	view := doc // cut on the view: the same offsets, the markup blanked
	view.Text = b.View
	pieces := c.group(view, packBlocks(b.Blocks))
	chunks := make([]schema.Chunk, 0, len(pieces))
	ids, docID := newIdentities(c.tenant, doc.SourceLabel, doc.Path), DocID(c.tenant, doc.SourceLabel, doc.Path)
	lines := newLineIndex(doc.Text)
	for _, pc := range pieces {
		if pc.el != schema.ElementTableRow {
			pc.text = b.Words(pc.start, pc.end)
		}
		if pc.el != schema.ElementCodeBlock && !HasWords(pc.text) {
			if b.Markup != nil {
				b.Markup[MarkupEmptyChunks]++
			}
			continue
		}
		ch := c.record(doc, docID, pc, ids, lines)
		if pc.lead.end > pc.lead.start {
			ch.LeadIn = b.Words(pc.lead.start, pc.lead.end)
		}
		ch.Metadata = b.metadata(pc.start, pc.end)
		ch.ByteStart, ch.ByteEnd = b.source(pc.start), b.source(pc.end-1)+1 // where a moved line's words are in the source
		ch.Order = len(chunks)
		if ch.Oversize {
			diags = append(diags, schema.Diagnostic{Path: doc.Path, Line: ch.LineStart, Severity: schema.SeverityInfo,
				Code: "oversize", Message: fmt.Sprintf("%s of %d %s is over the budget of %d and cannot be cut; kept whole", oversizeWhat(ch.Element), c.size.Count(ch.Text), c.cfg.Unit, c.cfg.Max)})
		}
		chunks = append(chunks, ch)
	}
	return chunks, diags
}

// Measure is the size of text in the budget's unit.
func (c *Chunker) Measure(text string) int { return c.size.Count(text) }

// Config is the budget the chunker cuts to (chunk.min resolved).
func (c *Chunker) Config() Config { return c.cfg }

// record fills a chunk's fields from a piece of the document whose id is
// docID; ids gives it its content hash and chunk id.
func (c *Chunker) record(doc schema.Document, docID string, pc piece, ids *identities, lines lineIndex) schema.Chunk {
	hash, id := ids.next(pc.text)
	rules := doc.Kind.Rules()
	ch := schema.Chunk{
		ChunkID:     id,
		ContentHash: hash,
		DocID:       docID,
		DocPath:     doc.Path,
		DocVersion:  doc.Version,
		DocTitle:    doc.Title,
		SourceURL:   doc.SourceURL,
		SourceLabel: doc.SourceLabel,
		TenantID:    c.tenant,
		Lang:        doc.Lang,
		Kind:        schema.ChunkKind(doc.Kind, pc.el),
		Element:     pc.el,
		Safety:      rules.Safety,
		SectionPath: pc.section,
		Text:        pc.text,
		LineStart:   lines.line(pc.start),
		LineEnd:     lines.line(max(pc.start, pc.end-1)),
		ByteStart:   pc.start,
		ByteEnd:     pc.end,
		TokenCount:  c.tokens.Count(pc.text),
		Oversize:    pc.oversize,
		Cells:       pc.cells,
	}
	if rules.Beach {
		ch.BeachID = doc.BeachID
	}
	return ch
}

// lineIndex holds the offset of every newline of a text, so a chunk's line
// numbers cost a binary search, not a scan from the top of the document.
type lineIndex []int

func newLineIndex(text string) lineIndex {
	idx := make(lineIndex, 0, strings.Count(text, "\n"))
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			idx = append(idx, i)
		}
	}
	return idx
}

// line is the 1-based line of byte offset off.
func (idx lineIndex) line(off int) int {
	n, _ := slices.BinarySearch(idx, off)
	return n + 1
}

func oversizeWhat(el schema.Element) string {
	switch el {
	case schema.ElementCodeBlock:
		return "a code block"
	case schema.ElementTableRow:
		return "a table row"
	case schema.ElementSectionHeading:
		return "a heading"
	}
	return "a sentence"
}
