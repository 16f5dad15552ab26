package chunkrow

import (
	"fmt"

	"github.com/ocean-safety/ingest/artifacts/internal/columns"
	"github.com/ocean-safety/ingest/schema"
)

// Assemble makes the chunk of a row's values, as arrow-go's reader made it:
// a section path is never nil, a vector, quantities, thresholds and header
// rejects are nil when empty, and a map's lists are never nil.
func Assemble(c *schema.Chunk, row *[LeafCount]columns.Row) error {
	str := func(i int) string { // "" for a null
		if len(row[i].Strs) == 0 {
			return ""
		}
		return row[i].Strs[0]
	}
	i32 := func(i int) int { return int(row[i].I32[0]) }
	i64 := func(i int) int { return int(row[i].I64[0]) }
	*c = schema.Chunk{
		ChunkID:       str(LeafChunkID),
		ContentHash:   str(LeafContentHash),
		DocID:         str(LeafDocID),
		DocPath:       str(LeafDocPath),
		DocVersion:    str(LeafDocVersion),
		DocTitle:      str(LeafDocTitle),
		SourceURL:     str(LeafSourceURL),
		SourceLabel:   str(LeafSourceLabel),
		TenantID:      str(LeafTenantID),
		Lang:          schema.Lang(str(LeafLang)),
		Kind:          schema.Kind(str(LeafKind)),
		Element:       schema.Element(str(LeafElement)),
		Safety:        row[LeafSafety].Bools[0],
		BeachID:       str(LeafBeachID),
		SectionPath:   append([]string{}, row[LeafSectionPath].Strs...),
		Order:         i32(LeafChunkOrder),
		Text:          str(LeafText),
		LineStart:     i32(LeafLineStart),
		LineEnd:       i32(LeafLineEnd),
		ByteStart:     i64(LeafByteStart),
		ByteEnd:       i64(LeafByteEnd),
		TokenCount:    i32(LeafTokenCount),
		ContextHeader: str(LeafContextHeader),
		HeaderSource:  str(LeafHeaderSource),
		Fields: schema.Fields{Hazard: str(LeafHazard), Place: str(LeafPlace), Season: str(LeafSeason),
			UnsourcedClaim: str(LeafUnsourcedClaim)},
		Embedding:  append([]float32(nil), row[LeafEmbedding].F32...),
		LeadIn:     str(LeafLeadIn),
		SearchText: str(LeafSearchText), // "" in a file before schema 5
	}
	if hr := row[LeafHeaderRejects].Strs; len(hr) > 0 {
		c.HeaderRejects = append([]string(nil), hr...)
	}
	var err error
	if c.Quantities, err = quantities(row); err != nil {
		return err
	}
	if c.Thresholds, err = thresholds(row, c); err != nil {
		return err
	}
	c.Metadata, err = metadata(&row[LeafMetadataKey], &row[LeafMetadataValue])
	return err
}

// sameLength checks that the fields of a list of structs hold a value
// each an element, as many as the first field.
func sameLength(what string, n int, lengths ...int) error {
	for _, l := range lengths {
		if l != n {
			return fmt.Errorf("read chunks: the fields of %s hold %d and %d values", what, n, l)
		}
	}
	return nil
}

func quantities(row *[LeafCount]columns.Row) ([]schema.Quantity, error) {
	q := row[LeafQuantities : LeafQuantities+10]
	n := len(q[0].Strs)
	if err := sameLength("quantities", n, len(q[1].F64), len(q[2].Strs), len(q[3].Strs), len(q[4].F64),
		len(q[5].Strs), len(q[6].I32), len(q[7].I32), len(q[8].I32), len(q[9].I32)); err != nil {
		return nil, err
	}
	var out []schema.Quantity
	for j := range n {
		out = append(out, schema.Quantity{
			Surface:   q[0].Strs[j],
			Value:     q[1].F64[j],
			Unit:      q[2].Strs[j],
			Dimension: q[3].Strs[j],
			SIValue:   q[4].F64[j],
			SIUnit:    q[5].Strs[j],
			Start:     int(q[6].I32[j]),
			End:       int(q[7].I32[j]),
			CharStart: int(q[8].I32[j]),
			CharEnd:   int(q[9].I32[j]),
		})
	}
	return out, nil
}

// thresholds are the row's thresholds, each with its chunk's path, section
// path, content hash and language.
func thresholds(row *[LeafCount]columns.Row, c *schema.Chunk) ([]schema.Threshold, error) {
	t := row[LeafThresholds : LeafThresholds+10]
	n := len(t[0].Strs)
	if err := sameLength("thresholds", n, len(t[1].Strs), len(t[2].F64), len(t[4].Strs),
		len(t[5].Strs), len(t[6].Strs), len(t[7].Strs), len(t[8].I32), len(t[9].Strs)); err != nil {
		return nil, err
	}
	var out []schema.Threshold
	for j := range n {
		out = append(out, schema.Threshold{
			Subject:     t[0].Strs[j],
			Comparator:  t[1].Strs[j],
			Value:       t[2].F64[j],
			SIUnit:      t[4].Strs[j],
			Surface:     t[5].Strs[j],
			Sentence:    t[6].Strs[j],
			Hazard:      t[7].Strs[j],
			Line:        int(t[8].I32[j]),
			Origin:      t[9].Strs[j],
			DocPath:     c.DocPath,
			SectionPath: c.SectionPath,
			ContentHash: c.ContentHash,
			Lang:        c.Lang,
		})
	}
	// value2 is nullable: an element's level is 2 when it is set, 1 when
	// it is null (0 is an empty list).
	v2, j, k := &t[3], 0, 0
	for _, d := range v2.Def {
		if d == 0 {
			continue
		}
		if j == n {
			return nil, fmt.Errorf("read chunks: the fields of thresholds hold %d and more values", n)
		}
		if d == 2 { // take counted the values set: as many as these levels
			out[j].Value2 = v2.F64[k]
			k++
		}
		j++
	}
	return out, sameLength("thresholds", n, j)
}

// metadata is the row's map, nil when null. Its keys are at level 2 (0 a
// null map, 1 an empty one); its lists' strings at 4, an empty list at 3
// and a null one at 2, and an entry's first level repeats at most at 1.
func metadata(keys, vals *columns.Row) (map[string][]string, error) {
	if len(keys.Def) == 0 || keys.Def[0] == 0 {
		return nil, nil
	}
	out := map[string][]string{}
	lists := make([][]string, 0, len(keys.Strs))
	s := vals.Strs
	for i, d := range vals.Def {
		if d >= 2 && vals.Rep[i] <= 1 {
			lists = append(lists, []string{})
		}
		if d == 4 {
			if len(lists) == 0 || len(s) == 0 {
				return nil, fmt.Errorf("read chunks: a metadata value outside an entry")
			}
			lists[len(lists)-1] = append(lists[len(lists)-1], s[0])
			s = s[1:]
		}
	}
	if len(lists) != len(keys.Strs) {
		return nil, fmt.Errorf("read chunks: %d metadata keys, %d lists", len(keys.Strs), len(lists))
	}
	for i, k := range keys.Strs {
		out[k] = lists[i]
	}
	return out, nil
}
