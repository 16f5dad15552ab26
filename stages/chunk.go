package stages

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/schema"
)

// Chunker cuts a parsed document into chunks, knowing its kind: prose by
// heading section with paragraphs merged up to the budget, safety one rule per
// chunk, lore one paragraph per chunk, tables one row per chunk, code whole.
// A chunk never ends inside a sentence.
type Chunker struct {
	cfg    ChunkConfig
	size   Counter // measures the budget
	tokens Counter // fills token_count
	tenant string
}

// idSpace is the UUID namespace of chunk and document ids (UUIDv5), fixed so
// ids are stable across runs and machines.
var idSpace = uuid.MustParse("6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50")

// NewChunker checks cfg and returns a chunker. tenant goes into chunk ids.
func NewChunker(cfg ChunkConfig, tenant string) (*Chunker, error) {
	c := DefaultConfig()
	c.Chunk = cfg
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &Chunker{cfg: cfg, size: newCounter(cfg.Unit), tokens: approxTokens{}, tenant: tenant}, nil
}

// Tokenizer names the counter behind token_count, for the manifest.
func (c *Chunker) Tokenizer() string { return c.tokens.Name() }

// Chunk cuts p into chunks with their identities filled in, and returns the
// diagnostics chunking raised (tables in prose, oversize sentences).
func (c *Chunker) Chunk(p Parsed) ([]schema.Chunk, []schema.Diagnostic) {
	if p.Rejected || p.root == nil {
		return nil, nil
	}
	w := blockWalker{p: &p, off: p.Doc.BodyStart}
	blocks := w.walk()
	var diags []schema.Diagnostic
	if p.Doc.Kind == schema.KindProse {
		for _, line := range w.tables {
			diags = append(diags, schema.Diagnostic{Path: p.Doc.Path, Line: line, Severity: schema.SeverityWarning,
				Code: "table-in-prose", Message: "table in a prose document: emitted as table rows (structured chunks)"})
		}
	}
	diags = append(diags, w.diags...)

	pieces := c.group(p.Doc, blocks)
	chunks := make([]schema.Chunk, 0, len(pieces))
	seen := map[string]int{}
	lines := newLineIndex(p.Doc.Text)
	for _, pc := range pieces {
		ch := c.record(p.Doc, pc, seen, lines)
		ch.Order = len(chunks)
		if ch.Oversize {
			diags = append(diags, schema.Diagnostic{Path: p.Doc.Path, Line: ch.LineStart, Severity: schema.SeverityInfo,
				Code: "oversize", Message: fmt.Sprintf("%s of %d %s is over the budget of %d and cannot be cut; kept whole", oversizeWhat(ch.Element), c.size.Count(ch.Text), c.cfg.Unit, c.cfg.Max)})
		}
		chunks = append(chunks, ch)
	}
	return chunks, diags
}

// record fills a chunk's fields from a piece. seen counts content hashes
// already used in the document, so a repeated paragraph still gets its own id.
func (c *Chunker) record(doc schema.Document, pc piece, seen map[string]int, lines lineIndex) schema.Chunk {
	sum := sha256.Sum256([]byte(pc.text))
	hash := hex.EncodeToString(sum[:])
	n := seen[hash]
	seen[hash]++
	kind := doc.Kind
	if pc.el == schema.ElementTableRow {
		kind = schema.KindStructured
	}
	ch := schema.Chunk{
		ChunkID:     uuid.NewSHA1(idSpace, []byte(c.tenant+"\x00"+doc.Path+"\x00"+hash+"\x00"+strconv.Itoa(n))).String(),
		ContentHash: hash,
		DocID:       DocID(doc.Path),
		DocPath:     doc.Path,
		DocVersion:  doc.Version,
		DocTitle:    doc.Title,
		SourceURL:   doc.SourceURL,
		SourceLabel: doc.SourceLabel,
		TenantID:    c.tenant,
		Lang:        doc.Lang,
		Kind:        kind,
		Element:     pc.el,
		Safety:      doc.Kind == schema.KindSafety,
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
	if doc.Kind == schema.KindLore {
		ch.BeachID = doc.BeachID
	}
	return ch
}

// DocID is the deterministic id of the document at a corpus-relative path.
func DocID(path string) string { return uuid.NewSHA1(idSpace, []byte(path)).String() }

func lineNumber(text string, off int) int { return 1 + strings.Count(text[:off], "\n") }

// lineIndex holds the offset of every newline of a text, so a chunk's line
// numbers cost a binary search, not a scan from the top of the document.
type lineIndex []int

func newLineIndex(text string) lineIndex {
	var idx lineIndex
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
