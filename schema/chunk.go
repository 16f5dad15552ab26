package schema

// Chunk is one retrievable piece of a document: one row of chunks.parquet.
type Chunk struct {
	ChunkID     string   `json:"chunk_id"`     // deterministic UUID of tenant, document and content hash
	ContentHash string   `json:"content_hash"` // hex SHA-256 of Text: the chunk's identity
	DocID       string   `json:"doc_id"`       // deterministic UUID of TenantID, SourceLabel and DocPath
	DocPath     string   `json:"doc_path"`
	DocVersion  string   `json:"doc_version"`
	DocTitle    string   `json:"doc_title"`
	SourceURL   string   `json:"source_url"`
	SourceLabel string   `json:"source_label"`
	TenantID    string   `json:"tenant_id"` // empty when the config names none (written as null)
	Lang        Lang     `json:"lang"`
	Kind        Kind     `json:"kind"`
	Element     Element  `json:"element"`
	Safety      bool     `json:"safety"`
	BeachID     string   `json:"beach_id"` // empty when none (written as null)
	SectionPath []string `json:"section_path"`
	Order       int      `json:"chunk_order"` // position within the document, from 0
	Text        string   `json:"text"`
	LineStart   int      `json:"line_start"` // 1-based, inclusive
	LineEnd     int      `json:"line_end"`   // 1-based, inclusive
	ByteStart   int      `json:"byte_start"` // offset into Document.Text, inclusive
	ByteEnd     int      `json:"byte_end"`   // offset into Document.Text, exclusive
	TokenCount  int      `json:"token_count"`
	Oversize    bool     `json:"oversize,omitempty"` // a single sentence longer than the budget, kept whole
	// LeadIn is the sentence that introduces the chunk's block when it is
	// not in Text: the later parts of a long list or table, code too long to
	// share a chunk with its lead-in, every rule under a safety lead-in
	// ("Never swim when:"). Headers name it; empty when Text holds its own.
	LeadIn string `json:"lead_in,omitempty"`

	ContextHeader string `json:"context_header"`
	HeaderSource  string `json:"header_source"`
	// HeaderRejects are why a model's answer was not used (the reasons its
	// last answer failed), for a HeaderExtractiveFallback header; empty
	// otherwise.
	HeaderRejects []string  `json:"header_rejects,omitempty"`
	Fields        Fields    `json:"fields"`
	Embedding     []float32 `json:"embedding"`

	// SearchText is what the embedder read and BM25 indexes: the section
	// path and context header, a blank line, the text as a reader sees it
	// (searchtext.Of). Empty in a row of a snapshot before schema 5.
	SearchText string `json:"search_text,omitempty"`

	// Metadata holds the document's front-matter keys named in the config
	// (metadata_keys) and, in an admonition, its kind ("admonition": note).
	Metadata map[string][]string `json:"metadata,omitempty"`

	Quantities []Quantity  `json:"quantities"`
	Thresholds []Threshold `json:"thresholds"`

	// Cells are a table row's cells, in memory only (not a column): where
	// each value sits in Text and the header it came from, so a bare number
	// takes its unit from the header ("Água (°C)").
	Cells []Cell `json:"-"`
}

// Fields are what the enrich stage extracted from a chunk (empty offline).
type Fields struct {
	Hazard         string `json:"hazard"`          // the danger the chunk is about: rip_current, cold_water, ...
	Place          string `json:"place"`           // a named place (beach, coast) it concerns
	Season         string `json:"season"`          // when it applies: summer, winter, ...
	UnsourcedClaim string `json:"unsourced_claim"` // a claim that reads as needing a source, quoted
}

// Cell is one value of a table row: Text[Start:End] under Header.
type Cell struct {
	Header     string
	Start, End int
}

// Key is the chunk's position key, "path#ordinal": stable while the document's
// structure is, and the order snapshots are merged in.
func (c *Chunk) Key() string { return ChunkKey(c.DocPath, c.Order) }

// Quantity is a measurement found in a chunk's text, with its canonical (SI)
// value. Start and End are UTF-8 byte offsets into the chunk's Text (what Go
// and Rust slice by); CharStart and CharEnd are the same span in Unicode
// code points (what Python, DuckDB and Polars count), so
// Text[Start:End] == string([]rune(Text)[CharStart:CharEnd]) == Surface.
type Quantity struct {
	Surface   string  `json:"surface"`
	Value     float64 `json:"value"`     // as written
	Unit      string  `json:"unit"`      // as written
	Dimension string  `json:"dimension"` // length | speed | temperature
	SIValue   float64 `json:"si_value"`
	SIUnit    string  `json:"si_unit"`    // m | m/s | degC
	Start     int     `json:"start"`      // UTF-8 byte offset, inclusive
	End       int     `json:"end"`        // UTF-8 byte offset, exclusive
	CharStart int     `json:"char_start"` // code point offset, inclusive
	CharEnd   int     `json:"char_end"`   // code point offset, exclusive
}

// Comparators a threshold can state.
const (
	ComparatorAbove   = "above"
	ComparatorBelow   = "below"
	ComparatorBetween = "between"
	ComparatorAtLeast = "at_least"
	ComparatorAtMost  = "at_most"
)

// Threshold is a numeric bound the corpus states ("surf above 1.5 m is
// hazardous"), proposed for review and never applied by ingest itself.
type Threshold struct {
	Subject     string   `json:"subject"`          // what it constrains: surf_height, wind_speed, water_temperature, ...
	Comparator  string   `json:"comparator"`       // one of the Comparator constants
	Value       float64  `json:"value"`            // SI; the lower end for between
	Value2      float64  `json:"value2,omitempty"` // SI upper end for between, else 0
	SIUnit      string   `json:"si_unit"`
	Surface     string   `json:"surface"`  // the quantity as written
	Sentence    string   `json:"sentence"` // the sentence that states it
	Hazard      string   `json:"hazard"`   // the consequence, where stated
	DocPath     string   `json:"doc_path"`
	SectionPath []string `json:"section_path"`
	Line        int      `json:"line"`
	ContentHash string   `json:"content_hash"` // of the chunk that states it
	Lang        Lang     `json:"lang"`
	Origin      string   `json:"origin"` // rule | model
}

// ProposedThreshold is a threshold as a model states it, before it is
// grounded in the text (thresholds.Ground).
type ProposedThreshold struct {
	Subject    string  `json:"subject"`
	Comparator string  `json:"comparator"`
	Value      float64 `json:"value"`
	Unit       string  `json:"unit"`
}
