package chunkrow

import (
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/schema"
)

// The leaf columns of chunks.parquet, in file order: the columns that hold
// values, a struct's fields each its own (artifacts' TestLeaves holds them to
// chunkFields).
const (
	LeafChunkID = iota
	LeafContentHash
	LeafDocID
	LeafDocPath
	LeafDocVersion
	LeafDocTitle
	LeafSourceURL
	LeafSourceLabel
	LeafTenantID
	LeafLang
	LeafKind
	LeafElement
	LeafSafety
	LeafBeachID
	LeafSectionPath
	LeafChunkOrder
	LeafText
	LeafLineStart
	LeafLineEnd
	LeafByteStart
	LeafByteEnd
	LeafTokenCount
	LeafContextHeader
	LeafHeaderSource
	LeafHazard
	LeafPlace
	LeafSeason
	LeafUnsourcedClaim
	LeafEmbedding
	LeafQuantities // the first of a quantity's 10 fields
)

const (
	LeafThresholds    = LeafQuantities + 10 // the first of a threshold's 10 fields
	LeafMetadataKey   = LeafThresholds + 10
	LeafMetadataValue = LeafMetadataKey + 1
	LeafLeadIn        = LeafMetadataKey + 2
	LeafHeaderRejects = LeafMetadataKey + 3
	LeafSearchText    = LeafMetadataKey + 4
	LeafCount         = LeafMetadataKey + 5
)

// Batch holds the values of rows not yet written, by leaf column. A value
// carries its repetition and definition levels, which say where it sits in
// its row: Dremel's encoding of nulls and lists.
//
// In this schema a list is never null, nor is a list's element, and a
// null or empty list is a single null value at definition level 0. A
// required column's values are at level 0, an optional column's at 1 (a
// null at 0); a list's elements at 1 (the first of a row at repetition
// level 0, the others at 1), a nullable field of a list's struct at 2 (a
// null at 1).
type Batch [][]parquet.Value

func (b Batch) put(col, rep, def int, v parquet.Value) {
	b[col] = append(b[col], v.Level(rep, def, col))
}

func (b Batch) null(col int) { b.put(col, 0, 0, parquet.NullValue()) }

// str is a string value that points into s: the writer copies it before
// the Batch is cleared.
func str(s string) parquet.Value {
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func (b Batch) optStr(col int, s string) {
	if s == "" {
		b.null(col)
		return
	}
	b.put(col, 0, 1, str(s))
}

func (b Batch) strs(col int, ss []string) {
	if len(ss) == 0 {
		b.null(col)
		return
	}
	for i, s := range ss {
		b.put(col, min(i, 1), 1, str(s))
	}
}

// Add appends c's values, but for its vector (artifacts' ChunkWriter writes
// it a row at a time, straight to its column).
func (b Batch) Add(c schema.Chunk) {
	for col, s := range [...]string{
		LeafChunkID: c.ChunkID, LeafContentHash: c.ContentHash, LeafDocID: c.DocID, LeafDocPath: c.DocPath,
		LeafDocVersion: c.DocVersion, LeafDocTitle: c.DocTitle, LeafSourceURL: c.SourceURL, LeafSourceLabel: c.SourceLabel,
	} {
		b.put(col, 0, 0, str(s))
	}
	b.optStr(LeafTenantID, c.TenantID)
	b.put(LeafLang, 0, 0, str(string(c.Lang)))
	b.put(LeafKind, 0, 0, str(string(c.Kind)))
	b.put(LeafElement, 0, 0, str(string(c.Element)))
	b.put(LeafSafety, 0, 0, parquet.BooleanValue(c.Safety))
	b.optStr(LeafBeachID, c.BeachID)
	b.strs(LeafSectionPath, c.SectionPath)
	b.put(LeafChunkOrder, 0, 0, parquet.Int32Value(int32(c.Order)))
	b.put(LeafText, 0, 0, str(c.Text))
	b.put(LeafLineStart, 0, 0, parquet.Int32Value(int32(c.LineStart)))
	b.put(LeafLineEnd, 0, 0, parquet.Int32Value(int32(c.LineEnd)))
	b.put(LeafByteStart, 0, 0, parquet.Int64Value(int64(c.ByteStart)))
	b.put(LeafByteEnd, 0, 0, parquet.Int64Value(int64(c.ByteEnd)))
	b.put(LeafTokenCount, 0, 0, parquet.Int32Value(int32(c.TokenCount)))
	b.put(LeafContextHeader, 0, 0, str(c.ContextHeader))
	b.put(LeafHeaderSource, 0, 0, str(c.HeaderSource))
	b.optStr(LeafHazard, c.Fields.Hazard)
	b.optStr(LeafPlace, c.Fields.Place)
	b.optStr(LeafSeason, c.Fields.Season)
	b.optStr(LeafUnsourcedClaim, c.Fields.UnsourcedClaim)
	b.quantities(c.Quantities)
	b.thresholds(c.Thresholds)
	b.metadata(c.Metadata)
	b.optStr(LeafLeadIn, c.LeadIn)
	b.strs(LeafHeaderRejects, c.HeaderRejects)
	b.put(LeafSearchText, 0, 0, str(c.SearchText))
}

func (b Batch) quantities(qs []schema.Quantity) {
	const q0 = LeafQuantities
	if len(qs) == 0 {
		for col := q0; col < q0+10; col++ {
			b.null(col)
		}
		return
	}
	for i, q := range qs {
		r := min(i, 1)
		b.put(q0, r, 1, str(q.Surface))
		b.put(q0+1, r, 1, parquet.DoubleValue(q.Value))
		b.put(q0+2, r, 1, str(q.Unit))
		b.put(q0+3, r, 1, str(q.Dimension))
		b.put(q0+4, r, 1, parquet.DoubleValue(q.SIValue))
		b.put(q0+5, r, 1, str(q.SIUnit))
		b.put(q0+6, r, 1, parquet.Int32Value(int32(q.Start)))
		b.put(q0+7, r, 1, parquet.Int32Value(int32(q.End)))
		b.put(q0+8, r, 1, parquet.Int32Value(int32(q.CharStart)))
		b.put(q0+9, r, 1, parquet.Int32Value(int32(q.CharEnd)))
	}
}

func (b Batch) thresholds(ts []schema.Threshold) {
	const t0 = LeafThresholds
	if len(ts) == 0 {
		for col := t0; col < t0+10; col++ {
			b.null(col)
		}
		return
	}
	for i, t := range ts {
		r := min(i, 1)
		b.put(t0, r, 1, str(t.Subject))
		b.put(t0+1, r, 1, str(t.Comparator))
		b.put(t0+2, r, 1, parquet.DoubleValue(t.Value))
		if t.Comparator == schema.ComparatorBetween {
			b.put(t0+3, r, 2, parquet.DoubleValue(t.Value2))
		} else {
			b.put(t0+3, r, 1, parquet.NullValue())
		}
		b.put(t0+4, r, 1, str(t.SIUnit))
		b.put(t0+5, r, 1, str(t.Surface))
		b.put(t0+6, r, 1, str(t.Sentence))
		b.put(t0+7, r, 1, str(t.Hazard))
		b.put(t0+8, r, 1, parquet.Int32Value(int32(t.Line)))
		b.put(t0+9, r, 1, str(t.Origin))
	}
}

// metadata writes m with its keys in order (so the bytes are the same from
// run to run), or null when it is empty. The map is nullable (level 1 when
// set), its entries repeated (2), an entry's list nullable though never
// null (3) and its strings repeated (4).
func (b Batch) metadata(m map[string][]string) {
	if len(m) == 0 {
		b.null(LeafMetadataKey)
		b.null(LeafMetadataValue)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		r := min(i, 1)
		b.put(LeafMetadataKey, r, 2, str(k))
		if len(m[k]) == 0 {
			b.put(LeafMetadataValue, r, 3, parquet.NullValue())
		}
		for j, v := range m[k] {
			if j > 0 {
				r = 2
			}
			b.put(LeafMetadataValue, r, 4, str(v))
		}
	}
}
