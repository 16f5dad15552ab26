package schema

// Chunk is one retrievable piece of a document: one row of chunks.parquet.
type Chunk struct {
	ChunkID     string // deterministic UUID of tenant, document and content hash
	ContentHash string // hex SHA-256 of Text: the chunk's identity
	DocID       string // deterministic UUID of DocPath
	DocPath     string
	DocVersion  string
	DocTitle    string
	SourceURL   string
	SourceLabel string
	TenantID    string // empty when the config names none (written as null)
	Lang        Lang
	Kind        Kind
	Element     Element
	Safety      bool
	BeachID     string // empty when none (written as null)
	SectionPath []string
	Order       int // position within the document, from 0
	Text        string
	LineStart   int // 1-based, inclusive
	LineEnd     int // 1-based, inclusive
	ByteStart   int // offset into Document.Text, inclusive
	ByteEnd     int // offset into Document.Text, exclusive
	TokenCount  int
	Oversize    bool // a single sentence longer than the budget, kept whole

	ContextHeader string
	HeaderSource  string
	Embedding     []float32

	Quantities []Quantity
	Thresholds []Threshold
}

// Key is the chunk's position key, "path#ordinal": stable while the document's
// structure is, and the order snapshots are merged in.
func (c *Chunk) Key() string { return ChunkKey(c.DocPath, c.Order) }

// Quantity is a measurement found in a chunk's text, with its canonical (SI)
// value. Start and End are byte offsets into the chunk's Text.
type Quantity struct {
	Surface   string
	Value     float64 // as written
	Unit      string  // as written
	Dimension string  // length | speed | temperature
	SIValue   float64
	SIUnit    string // m | m/s | degC
	Start     int
	End       int
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
	Subject     string  // what it constrains: surf_height, wind_speed, water_temperature, ...
	Comparator  string  // one of the Comparator constants
	Value       float64 // SI; the lower end for between
	Value2      float64 // SI upper end for between, else 0
	SIUnit      string
	Surface     string // the quantity as written
	Sentence    string // the sentence that states it
	Hazard      string // the consequence, where stated
	DocPath     string
	SectionPath []string
	Line        int
	ContentHash string // of the chunk that states it
	Lang        Lang
	Origin      string // rule | model
}
