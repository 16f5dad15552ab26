package artifacts

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// SchemaVersion is the version of the chunks.parquet layout, in the file's
// key-value metadata and in the manifest. Bump it when a column changes.
//
// 2: the metadata column; quantities gained char_start and char_end (code
// point offsets). One version: no release wrote either alone.
// 3: the lead_in column, last, so a version 2 file reads as version 3 rows
// without lead-ins.
// 4: doc_id (and so chunk_id) derived from the tenant and source label as
// well as the path, so two sources of a tenant never share a document id;
// the header_rejects column (why a header is a fallback), last.
const SchemaVersion = "4"

// ReadsSchema reports whether this build reads chunks.parquet files of
// schema version v: this one, and versions 2 and 3, which lack only the
// last columns (lead_in, header_rejects) and have the ids of the path alone
// (an upgrade reuses what the last snapshot paid for: ids are no part of a
// reuse key; deliveries refuse them, see destination).
func ReadsSchema(v string) bool { return v == SchemaVersion || v == "3" || v == "2" }

// The columns of chunks.parquet, in order.
const (
	colChunkID = iota
	colContentHash
	colDocID
	colDocPath
	colDocVersion
	colDocTitle
	colSourceURL
	colSourceLabel
	colTenantID
	colLang
	colKind
	colElement
	colSafety
	colBeachID
	colSectionPath
	colChunkOrder
	colText
	colLineStart
	colLineEnd
	colByteStart
	colByteEnd
	colTokenCount
	colContextHeader
	colHeaderSource
	colHazard
	colPlace
	colSeason
	colUnsourcedClaim
	colEmbedding
	colQuantities
	colThresholds
	colMetadata
	colLeadIn
	colHeaderRejects
)

// metadataType is the metadata column: front-matter keys to their values.
var metadataType = arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOfNonNullable(arrow.BinaryTypes.String))

var quantityType = arrow.StructOf(
	arrow.Field{Name: "surface", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "value", Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: "unit", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "dimension", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "si_value", Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: "si_unit", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "start", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "end", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "char_start", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "char_end", Type: arrow.PrimitiveTypes.Int32},
)

var thresholdType = arrow.StructOf(
	arrow.Field{Name: "subject", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "comparator", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "value", Type: arrow.PrimitiveTypes.Float64},
	arrow.Field{Name: "value2", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	arrow.Field{Name: "si_unit", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "surface", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "sentence", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "hazard", Type: arrow.BinaryTypes.String},
	arrow.Field{Name: "line", Type: arrow.PrimitiveTypes.Int32},
	arrow.Field{Name: "origin", Type: arrow.BinaryTypes.String},
)

// Schema is the Arrow schema of chunks.parquet with dims-wide embeddings.
func Schema(dims int) *arrow.Schema {
	str := arrow.BinaryTypes.String
	i32 := arrow.PrimitiveTypes.Int32
	i64 := arrow.PrimitiveTypes.Int64
	fields := []arrow.Field{
		{Name: "chunk_id", Type: str},
		{Name: "content_hash", Type: str},
		{Name: "doc_id", Type: str},
		{Name: "doc_path", Type: str},
		{Name: "doc_version", Type: str},
		{Name: "doc_title", Type: str},
		{Name: "source_url", Type: str},
		{Name: "source_label", Type: str},
		{Name: "tenant_id", Type: str, Nullable: true},
		{Name: "lang", Type: str},
		{Name: "kind", Type: str},
		{Name: "element", Type: str},
		{Name: "safety", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "beach_id", Type: str, Nullable: true},
		{Name: "section_path", Type: arrow.ListOfNonNullable(str)},
		{Name: "chunk_order", Type: i32},
		{Name: "text", Type: str},
		{Name: "line_start", Type: i32},
		{Name: "line_end", Type: i32},
		{Name: "byte_start", Type: i64},
		{Name: "byte_end", Type: i64},
		{Name: "token_count", Type: i32},
		{Name: "context_header", Type: str},
		{Name: "header_source", Type: str},
		{Name: "hazard", Type: str, Nullable: true},
		{Name: "place", Type: str, Nullable: true},
		{Name: "season", Type: str, Nullable: true},
		{Name: "unsourced_claim", Type: str, Nullable: true},
		{Name: "embedding", Type: arrow.FixedSizeListOfNonNullable(int32(dims), arrow.PrimitiveTypes.Float32)},
		{Name: "quantities", Type: arrow.ListOfNonNullable(quantityType)},
		{Name: "thresholds", Type: arrow.ListOfNonNullable(thresholdType)},
		{Name: "metadata", Type: metadataType, Nullable: true},
		{Name: "lead_in", Type: str, Nullable: true},
		{Name: "header_rejects", Type: arrow.ListOfNonNullable(str)},
	}
	md := arrow.NewMetadata([]string{"ingest.schema_version", "ingest.embedding_dims"}, []string{SchemaVersion, strconv.Itoa(dims)})
	return arrow.NewSchema(fields, &md)
}

// lowCardinality are the columns written with dictionary encoding. Only
// these: a column that outgrows its dictionary makes arrow-go write its
// encoding stats in map order, and the file stops being byte-identical.
var lowCardinality = []string{"lang", "kind", "element", "header_source", "source_label", "tenant_id"}

// builders gives typed access to a record builder's columns.
type builders struct{ rb *array.RecordBuilder }

func (b builders) str(i int) *array.StringBuilder      { return b.rb.Field(i).(*array.StringBuilder) }
func (b builders) i32(i int) *array.Int32Builder       { return b.rb.Field(i).(*array.Int32Builder) }
func (b builders) i64(i int) *array.Int64Builder       { return b.rb.Field(i).(*array.Int64Builder) }
func (b builders) list(i int) *array.ListBuilder       { return b.rb.Field(i).(*array.ListBuilder) }
func (b builders) boolean(i int) *array.BooleanBuilder { return b.rb.Field(i).(*array.BooleanBuilder) }

func (b builders) optStr(i int, s string) {
	if s == "" {
		b.str(i).AppendNull()
		return
	}
	b.str(i).Append(s)
}
