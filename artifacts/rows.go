package artifacts

import (
	"slices"
	"unsafe"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/schema"
)

// The leaf columns of chunks.parquet, in file order: the columns that hold
// values, a struct's fields each its own (TestLeaves holds them to
// chunkFields).
const (
	leafChunkID = iota
	leafContentHash
	leafDocID
	leafDocPath
	leafDocVersion
	leafDocTitle
	leafSourceURL
	leafSourceLabel
	leafTenantID
	leafLang
	leafKind
	leafElement
	leafSafety
	leafBeachID
	leafSectionPath
	leafChunkOrder
	leafText
	leafLineStart
	leafLineEnd
	leafByteStart
	leafByteEnd
	leafTokenCount
	leafContextHeader
	leafHeaderSource
	leafHazard
	leafPlace
	leafSeason
	leafUnsourcedClaim
	leafEmbedding
	leafQuantities // the first of a quantity's 10 fields
)

const (
	leafThresholds    = leafQuantities + 10 // the first of a threshold's 10 fields
	leafMetadataKey   = leafThresholds + 10
	leafMetadataValue = leafMetadataKey + 1
	leafLeadIn        = leafMetadataKey + 2
	leafHeaderRejects = leafMetadataKey + 3
	leafCount         = leafMetadataKey + 4
)

// batch holds the values of rows not yet written, by leaf column. A value
// carries its repetition and definition levels, which say where it sits in
// its row: Dremel's encoding of nulls and lists.
//
// In this schema a list is never null, nor is a list's element, and a
// null or empty list is a single null value at definition level 0. A
// required column's values are at level 0, an optional column's at 1 (a
// null at 0); a list's elements at 1 (the first of a row at repetition
// level 0, the others at 1), a nullable field of a list's struct at 2 (a
// null at 1).
type batch [][]parquet.Value

func (b batch) put(col, rep, def int, v parquet.Value) {
	b[col] = append(b[col], v.Level(rep, def, col))
}

func (b batch) null(col int) { b.put(col, 0, 0, parquet.NullValue()) }

// str is a string value that points into s: the writer copies it before
// the batch is cleared.
func str(s string) parquet.Value {
	return parquet.ByteArrayValue(unsafe.Slice(unsafe.StringData(s), len(s)))
}

func (b batch) optStr(col int, s string) {
	if s == "" {
		b.null(col)
		return
	}
	b.put(col, 0, 1, str(s))
}

func (b batch) strs(col int, ss []string) {
	if len(ss) == 0 {
		b.null(col)
		return
	}
	for i, s := range ss {
		b.put(col, min(i, 1), 1, str(s))
	}
}

// add appends c's values, but for its vector (ChunkWriter.writeVector).
func (b batch) add(c schema.Chunk) {
	for col, s := range [...]string{
		leafChunkID: c.ChunkID, leafContentHash: c.ContentHash, leafDocID: c.DocID, leafDocPath: c.DocPath,
		leafDocVersion: c.DocVersion, leafDocTitle: c.DocTitle, leafSourceURL: c.SourceURL, leafSourceLabel: c.SourceLabel,
	} {
		b.put(col, 0, 0, str(s))
	}
	b.optStr(leafTenantID, c.TenantID)
	b.put(leafLang, 0, 0, str(string(c.Lang)))
	b.put(leafKind, 0, 0, str(string(c.Kind)))
	b.put(leafElement, 0, 0, str(string(c.Element)))
	b.put(leafSafety, 0, 0, parquet.BooleanValue(c.Safety))
	b.optStr(leafBeachID, c.BeachID)
	b.strs(leafSectionPath, c.SectionPath)
	b.put(leafChunkOrder, 0, 0, parquet.Int32Value(int32(c.Order)))
	b.put(leafText, 0, 0, str(c.Text))
	b.put(leafLineStart, 0, 0, parquet.Int32Value(int32(c.LineStart)))
	b.put(leafLineEnd, 0, 0, parquet.Int32Value(int32(c.LineEnd)))
	b.put(leafByteStart, 0, 0, parquet.Int64Value(int64(c.ByteStart)))
	b.put(leafByteEnd, 0, 0, parquet.Int64Value(int64(c.ByteEnd)))
	b.put(leafTokenCount, 0, 0, parquet.Int32Value(int32(c.TokenCount)))
	b.put(leafContextHeader, 0, 0, str(c.ContextHeader))
	b.put(leafHeaderSource, 0, 0, str(c.HeaderSource))
	b.optStr(leafHazard, c.Fields.Hazard)
	b.optStr(leafPlace, c.Fields.Place)
	b.optStr(leafSeason, c.Fields.Season)
	b.optStr(leafUnsourcedClaim, c.Fields.UnsourcedClaim)
	b.quantities(c.Quantities)
	b.thresholds(c.Thresholds)
	b.metadata(c.Metadata)
	b.optStr(leafLeadIn, c.LeadIn)
	b.strs(leafHeaderRejects, c.HeaderRejects)
}

func (b batch) quantities(qs []schema.Quantity) {
	const q0 = leafQuantities
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

func (b batch) thresholds(ts []schema.Threshold) {
	const t0 = leafThresholds
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
func (b batch) metadata(m map[string][]string) {
	if len(m) == 0 {
		b.null(leafMetadataKey)
		b.null(leafMetadataValue)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		r := min(i, 1)
		b.put(leafMetadataKey, r, 2, str(k))
		if len(m[k]) == 0 {
			b.put(leafMetadataValue, r, 3, parquet.NullValue())
		}
		for j, v := range m[k] {
			if j > 0 {
				r = 2
			}
			b.put(leafMetadataValue, r, 4, str(v))
		}
	}
}

// RowBefore is the order of a snapshot's rows: by document path, then by
// chunk order within the document.
func RowBefore(a, b schema.Chunk) bool {
	if a.DocPath != b.DocPath {
		return a.DocPath < b.DocPath
	}
	return a.Order < b.Order
}
