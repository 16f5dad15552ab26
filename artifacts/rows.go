package artifacts

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/ocean-safety/ingest/schema"
)

// append adds c as one row of the record being built.
func (w *ChunkWriter) append(c schema.Chunk) {
	b := w.b
	b.str(colChunkID).Append(c.ChunkID)
	b.str(colContentHash).Append(c.ContentHash)
	b.str(colDocID).Append(c.DocID)
	b.str(colDocPath).Append(c.DocPath)
	b.str(colDocVersion).Append(c.DocVersion)
	b.str(colDocTitle).Append(c.DocTitle)
	b.str(colSourceURL).Append(c.SourceURL)
	b.str(colSourceLabel).Append(c.SourceLabel)
	b.optStr(colTenantID, c.TenantID)
	b.str(colLang).Append(string(c.Lang))
	b.str(colKind).Append(string(c.Kind))
	b.str(colElement).Append(string(c.Element))
	b.boolean(colSafety).Append(c.Safety)
	b.optStr(colBeachID, c.BeachID)

	sp := b.list(colSectionPath)
	sp.Append(true)
	for _, s := range c.SectionPath {
		sp.ValueBuilder().(*array.StringBuilder).Append(s)
	}

	b.i32(colChunkOrder).Append(int32(c.Order))
	b.str(colText).Append(c.Text)
	b.i32(colLineStart).Append(int32(c.LineStart))
	b.i32(colLineEnd).Append(int32(c.LineEnd))
	b.i64(colByteStart).Append(int64(c.ByteStart))
	b.i64(colByteEnd).Append(int64(c.ByteEnd))
	b.i32(colTokenCount).Append(int32(c.TokenCount))
	b.str(colContextHeader).Append(c.ContextHeader)
	b.str(colHeaderSource).Append(c.HeaderSource)
	b.optStr(colHazard, c.Fields.Hazard)
	b.optStr(colPlace, c.Fields.Place)
	b.optStr(colSeason, c.Fields.Season)
	b.optStr(colUnsourcedClaim, c.Fields.UnsourcedClaim)

	emb := w.rb.Field(colEmbedding).(*array.FixedSizeListBuilder)
	emb.Append(true)
	emb.ValueBuilder().(*array.Float32Builder).AppendValues(c.Embedding, nil)

	appendQuantities(b.list(colQuantities), c.Quantities)
	appendThresholds(b.list(colThresholds), c.Thresholds)
	appendMetadata(w.rb.Field(colMetadata).(*array.MapBuilder), c.Metadata)
	b.optStr(colLeadIn, c.LeadIn)

	hr := b.list(colHeaderRejects)
	hr.Append(true)
	for _, s := range c.HeaderRejects {
		hr.ValueBuilder().(*array.StringBuilder).Append(s)
	}
}

// appendMetadata writes m with its keys in order (so the bytes are the same
// from run to run), or null when it is empty.
func appendMetadata(mb *array.MapBuilder, m map[string][]string) {
	if len(m) == 0 {
		mb.AppendNull()
		return
	}
	mb.Append(true)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.ListBuilder)
	for _, k := range keys {
		kb.Append(k)
		ib.Append(true)
		for _, v := range m[k] {
			ib.ValueBuilder().(*array.StringBuilder).Append(v)
		}
	}
}

func appendQuantities(lb *array.ListBuilder, qs []schema.Quantity) {
	lb.Append(true)
	sb := lb.ValueBuilder().(*array.StructBuilder)
	for _, q := range qs {
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append(q.Surface)
		sb.FieldBuilder(1).(*array.Float64Builder).Append(q.Value)
		sb.FieldBuilder(2).(*array.StringBuilder).Append(q.Unit)
		sb.FieldBuilder(3).(*array.StringBuilder).Append(q.Dimension)
		sb.FieldBuilder(4).(*array.Float64Builder).Append(q.SIValue)
		sb.FieldBuilder(5).(*array.StringBuilder).Append(q.SIUnit)
		sb.FieldBuilder(6).(*array.Int32Builder).Append(int32(q.Start))
		sb.FieldBuilder(7).(*array.Int32Builder).Append(int32(q.End))
		sb.FieldBuilder(8).(*array.Int32Builder).Append(int32(q.CharStart))
		sb.FieldBuilder(9).(*array.Int32Builder).Append(int32(q.CharEnd))
	}
}

func appendThresholds(lb *array.ListBuilder, ts []schema.Threshold) {
	lb.Append(true)
	sb := lb.ValueBuilder().(*array.StructBuilder)
	for _, t := range ts {
		sb.Append(true)
		sb.FieldBuilder(0).(*array.StringBuilder).Append(t.Subject)
		sb.FieldBuilder(1).(*array.StringBuilder).Append(t.Comparator)
		sb.FieldBuilder(2).(*array.Float64Builder).Append(t.Value)
		if t.Comparator == schema.ComparatorBetween {
			sb.FieldBuilder(3).(*array.Float64Builder).Append(t.Value2)
		} else {
			sb.FieldBuilder(3).(*array.Float64Builder).AppendNull()
		}
		sb.FieldBuilder(4).(*array.StringBuilder).Append(t.SIUnit)
		sb.FieldBuilder(5).(*array.StringBuilder).Append(t.Surface)
		sb.FieldBuilder(6).(*array.StringBuilder).Append(t.Sentence)
		sb.FieldBuilder(7).(*array.StringBuilder).Append(t.Hazard)
		sb.FieldBuilder(8).(*array.Int32Builder).Append(int32(t.Line))
		sb.FieldBuilder(9).(*array.StringBuilder).Append(t.Origin)
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
