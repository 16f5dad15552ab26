package push

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
)

// The wire form of contract 1 (docs/push.md, docs/push.schema.json).

// Contract is the contract version every request names, in its body and
// in the ContractHeader.
const Contract = 1

// ContractHeader is the header naming the contract version.
const ContractHeader = "Ingest-Push-Contract"

// Operations.
const (
	opUpsert = "upsert"
	opDelete = "delete"
)

// Delete reasons.
const (
	ReasonRemoved    = "removed"    // the document is gone from the snapshot
	ReasonSuperseded = "superseded" // a new version of it is complete
)

type envelope struct {
	Contract    int    `json:"contract"`
	Operation   string `json:"operation"`
	TenantID    string `json:"tenant_id"`
	SourceLabel string `json:"source_label"`
	Snapshot    string `json:"snapshot"`
	// Resend is set by --full: the push's trace id, so its requests carry
	// new idempotency keys and a receiver applies them again.
	Resend string `json:"resend,omitempty"`
}

type upsertBody struct {
	envelope
	Documents []wireDoc `json:"documents"`
}

type deleteBody struct {
	envelope
	Deletes []wireDelete `json:"deletes"`
}

type wireDelete struct {
	DocID     string `json:"doc_id"`
	VersionID string `json:"version_id"`
	Reason    string `json:"reason"`
}

// wireDoc is a document version, or a part of one, in a request.
type wireDoc struct {
	DocID      string            `json:"doc_id"`
	VersionID  string            `json:"version_id"`
	DocVersion string            `json:"doc_version"`
	DocPath    string            `json:"doc_path"`
	Title      string            `json:"title"`
	SourceURL  string            `json:"source_url"`
	Lang       schema.Lang       `json:"lang"`
	Kind       schema.Kind       `json:"kind"`
	BeachID    *string           `json:"beach_id"`
	ChunkCount int               `json:"chunk_count"`
	Part       wirePart          `json:"part"`
	Models     wireModels        `json:"models"`
	Chunks     []json.RawMessage `json:"chunks"`
}

type wirePart struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

type wireModels struct {
	HeaderWriter string `json:"header_writer"`
	Embedder     string `json:"embedder"`
	Dims         int    `json:"dims"`
}

type wireChunk struct {
	ChunkID       string              `json:"chunk_id"`
	Order         int                 `json:"order"`
	Element       schema.Element      `json:"element"`
	Text          string              `json:"text"`
	ContentHash   string              `json:"content_hash"`
	ContextHeader string              `json:"context_header"`
	LeadIn        string              `json:"lead_in,omitempty"`
	HeaderSource  string              `json:"header_source"`
	SectionPath   []string            `json:"section_path"`
	Safety        bool                `json:"safety"`
	TokenCount    int                 `json:"token_count"`
	LineStart     int                 `json:"line_start"`
	LineEnd       int                 `json:"line_end"`
	Fields        schema.Fields       `json:"fields"`
	Thresholds    []wireThreshold     `json:"thresholds"`
	Metadata      map[string][]string `json:"metadata,omitempty"`
	Embedding     []float32           `json:"embedding"`
}

type wireThreshold struct {
	Subject    string  `json:"subject"`
	Comparator string  `json:"comparator"`
	Value      float64 `json:"value"`
	Value2     float64 `json:"value2,omitempty"`
	SIUnit     string  `json:"si_unit"`
	Surface    string  `json:"surface"`
	Sentence   string  `json:"sentence"`
	Hazard     string  `json:"hazard,omitempty"`
	Line       int     `json:"line"`
	Origin     string  `json:"origin"`
}

// docVersion is one document version of the snapshot in wire form: its
// context and its chunks, each encoded once, and the digest the state
// compares.
type docVersion struct {
	ctx     wireDoc // Part, ChunkCount and Chunks left empty
	chunks  []json.RawMessage
	hashes  []string // content_hash of each chunk: SHA-256 of its text
	digest  string   // SHA-256 of the context and chunks as sent
	ctxSize int      // bytes of the context's JSON
}

// encodeDoc turns a document's rows into its wire form.
func encodeDoc(rows []schema.Chunk, m wireModels) (*docVersion, error) {
	c0 := rows[0]
	d := &docVersion{ctx: wireDoc{DocID: c0.DocID, VersionID: deliver.VersionID(c0.DocVersion).String(),
		DocVersion: c0.DocVersion, DocPath: c0.DocPath, Title: c0.DocTitle, SourceURL: c0.SourceURL, Lang: c0.Lang,
		Kind: c0.Kind, Models: m}}
	if c0.BeachID != "" {
		b := c0.BeachID
		d.ctx.BeachID = &b
	}
	h := sha256.New()
	ctx, err := json.Marshal(d.ctx)
	if err != nil {
		return nil, fmt.Errorf("document %s: %w", c0.DocPath, err)
	}
	h.Write(ctx)
	d.ctxSize = len(ctx)
	for _, c := range rows {
		b, err := json.Marshal(wireChunkOf(c))
		if err != nil {
			return nil, fmt.Errorf("chunk %s: %w", c.Key(), err)
		}
		h.Write([]byte{'\n'})
		h.Write(b)
		d.chunks = append(d.chunks, b)
		d.hashes = append(d.hashes, c.ContentHash)
	}
	d.digest = hex.EncodeToString(h.Sum(nil))
	return d, nil
}

func wireChunkOf(c schema.Chunk) wireChunk {
	w := wireChunk{ChunkID: c.ChunkID, Order: c.Order, Element: c.Element, Text: c.Text, ContentHash: c.ContentHash,
		ContextHeader: c.ContextHeader, LeadIn: c.LeadIn, HeaderSource: c.HeaderSource, SectionPath: c.SectionPath, Safety: c.Safety,
		TokenCount: c.TokenCount, LineStart: c.LineStart, LineEnd: c.LineEnd, Fields: c.Fields,
		Thresholds: []wireThreshold{}, Metadata: c.Metadata, Embedding: c.Embedding}
	if w.SectionPath == nil {
		w.SectionPath = []string{}
	}
	for _, t := range c.Thresholds {
		w.Thresholds = append(w.Thresholds, wireThreshold{Subject: t.Subject, Comparator: t.Comparator, Value: t.Value,
			Value2: t.Value2, SIUnit: t.SIUnit, Surface: t.Surface, Sentence: t.Sentence, Hazard: t.Hazard,
			Line: t.Line, Origin: t.Origin})
	}
	return w
}

// body is a request body ready to send: its JSON, gzip-compressed, and
// its idempotency key.
type body struct {
	gz  []byte
	raw int    // bytes before gzip
	key string // hex SHA-256 of the JSON
}

func encodeBody(v any) (body, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return body{}, err
	}
	sum := sha256.Sum256(b)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return body{}, err
	}
	return body{gz: buf.Bytes(), raw: len(b), key: hex.EncodeToString(sum[:])}, nil
}
