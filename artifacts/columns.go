package artifacts

import (
	"strconv"

	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
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
//
// The writer changed library (arrow-go to parquet-go) within version 4: the
// columns, their Parquet types and the ARROW:schema entry are what arrow-go
// wrote, so a reader of either build reads a file of the other.
//
// 5: the search_text column, last: what the embedder read and BM25 indexes
// (searchtext.Of); a file of an older version reads as rows with an
// empty SearchText.
const SchemaVersion = "5"

// ReadsSchema reports whether this build reads chunks.parquet files of
// schema version v: this one, and versions 2 to 4, which lack only the last
// columns (lead_in and header_rejects before 4, search_text before 5);
// versions 2 and 3 have the ids of the path alone (an upgrade reuses what
// the last snapshot paid for: ids are no part of a reuse key; deliveries
// refuse them, see destination).
func ReadsSchema(v string) bool { return v == SchemaVersion || v == "4" || v == "3" || v == "2" }

// The key-value metadata of chunks.parquet, in the order they are written.
const (
	keySchemaVersion = "ingest.schema_version"
	keyDims          = "ingest.embedding_dims"
)

// The columns are described once, as Arrow readers see them (the "Arrow
// type" of docs/consumers.md): the Parquet schema (parquetSchema), the
// ARROW:schema entry and the dump's schema text are all drawn from them,
// so the three cannot disagree.
type field = ipcschema.Field

var (
	utf8T    = ipcschema.UTF8
	int32T   = ipcschema.Int32
	float64T = ipcschema.Float64
)

var quantityType = ipcschema.StructOf(
	field{Name: "surface", Type: utf8T},
	field{Name: "value", Type: float64T},
	field{Name: "unit", Type: utf8T},
	field{Name: "dimension", Type: utf8T},
	field{Name: "si_value", Type: float64T},
	field{Name: "si_unit", Type: utf8T},
	field{Name: "start", Type: int32T},
	field{Name: "end", Type: int32T},
	field{Name: "char_start", Type: int32T},
	field{Name: "char_end", Type: int32T},
)

var thresholdType = ipcschema.StructOf(
	field{Name: "subject", Type: utf8T},
	field{Name: "comparator", Type: utf8T},
	field{Name: "value", Type: float64T},
	field{Name: "value2", Type: float64T, Nullable: true},
	field{Name: "si_unit", Type: utf8T},
	field{Name: "surface", Type: utf8T},
	field{Name: "sentence", Type: utf8T},
	field{Name: "hazard", Type: utf8T},
	field{Name: "line", Type: int32T},
	field{Name: "origin", Type: utf8T},
)

// chunkFields are the columns of chunks.parquet with dims-wide embeddings,
// in order.
func chunkFields(dims int) []field {
	str := func(name string) field { return field{Name: name, Type: utf8T} }
	optStr := func(name string) field { return field{Name: name, Type: utf8T, Nullable: true} }
	i32 := func(name string) field { return field{Name: name, Type: int32T} }
	i64 := func(name string) field { return field{Name: name, Type: ipcschema.Int64} }
	return []field{
		str("chunk_id"),
		str("content_hash"),
		str("doc_id"),
		str("doc_path"),
		str("doc_version"),
		str("doc_title"),
		str("source_url"),
		str("source_label"),
		optStr("tenant_id"),
		str("lang"),
		str("kind"),
		str("element"),
		{Name: "safety", Type: ipcschema.Bool},
		optStr("beach_id"),
		{Name: "section_path", Type: ipcschema.ListOf(utf8T)},
		i32("chunk_order"),
		str("text"),
		i32("line_start"),
		i32("line_end"),
		i64("byte_start"),
		i64("byte_end"),
		i32("token_count"),
		str("context_header"),
		str("header_source"),
		optStr("hazard"),
		optStr("place"),
		optStr("season"),
		optStr("unsourced_claim"),
		{Name: "embedding", Type: ipcschema.FixedSizeListOf(dims, ipcschema.Float32)},
		{Name: "quantities", Type: ipcschema.ListOf(quantityType)},
		{Name: "thresholds", Type: ipcschema.ListOf(thresholdType)},
		{Name: "metadata", Type: ipcschema.MapOf(ipcschema.ListOf(utf8T)), Nullable: true},
		optStr("lead_in"),
		{Name: "header_rejects", Type: ipcschema.ListOf(utf8T)},
		str("search_text"),
	}
}

// fileMetadata is the key-value metadata of a file with dims-wide
// embeddings, in order.
func fileMetadata(dims int) [][2]string {
	return [][2]string{{keySchemaVersion, SchemaVersion}, {keyDims, strconv.Itoa(dims)}}
}

// lowCardinality are the columns written with dictionary encoding: a few
// distinct values in a whole file. A column of many values would grow a
// dictionary the size of the column for nothing.
var lowCardinality = []string{"lang", "kind", "element", "header_source", "source_label", "tenant_id"}
