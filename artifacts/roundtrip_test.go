package artifacts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/ocean-safety/ingest/artifacts/internal/chunkrow"
	"github.com/ocean-safety/ingest/schema"
)

// TestLeaves: the leaf* constants name the leaves of chunkFields in order.
func TestLeaves(t *testing.T) {
	leaves := leavesOf(chunkFields(4))
	if len(leaves) != chunkrow.LeafCount {
		t.Fatalf("got %d leaves, want chunkrow.LeafCount %d", len(leaves), chunkrow.LeafCount)
	}
	for i, want := range map[int]string{
		chunkrow.LeafChunkID: "chunk_id", chunkrow.LeafSafety: "safety", chunkrow.LeafSectionPath: "section_path.list.element",
		chunkrow.LeafEmbedding: "embedding.list.element", chunkrow.LeafQuantities: "quantities.list.element.surface",
		chunkrow.LeafThresholds: "thresholds.list.element.subject", chunkrow.LeafThresholds + 3: "thresholds.list.element.value2",
		chunkrow.LeafMetadataKey: "metadata.key_value.key", chunkrow.LeafMetadataValue: "metadata.key_value.value.list.element",
		chunkrow.LeafLeadIn: "lead_in", chunkrow.LeafHeaderRejects: "header_rejects.list.element",
		chunkrow.LeafSearchText: "search_text",
	} {
		if leaves[i].path != want {
			t.Errorf("leaf %d: got %s, want %s", i, leaves[i].path, want)
		}
	}
	if l := leaves[chunkrow.LeafMetadataValue]; l.maxRep != 2 || l.maxDef != 4 {
		t.Errorf("got %s for a metadata value, want levels 2/4", l)
	}
}

// richRows are rows with every part a row can have set, and unset: nulls,
// empty and long lists, a between and an above, maps with empty lists.
func richRows() []schema.Chunk {
	var rows []schema.Chunk
	for i := range 30 {
		c := testRow(fmt.Sprintf("doc-%02d.md", i/3), i%3, i)
		if i%2 == 0 {
			c.TenantID, c.BeachID, c.LeadIn = "tenant", "joaquina", "Never swim when:"
			c.Fields = schema.Fields{Hazard: "rip", Place: "canto", Season: "winter", UnsourcedClaim: "x"}
			c.HeaderRejects = []string{"not-json", "place-not-in-document"}[:1+i%4/2]
			c.SearchText = "Rip currents › Flags › header\n\nsearch text " + strconv.Itoa(i)
		}
		if i%3 == 0 {
			c.SectionPath = nil
			c.Safety, c.Kind, c.Lang, c.Element = true, schema.KindSafety, schema.LangPT, schema.ElementListItem
		}
		for k := range i % 4 {
			cmp := []string{schema.ComparatorAbove, schema.ComparatorBetween}[k%2]
			c.Thresholds = append(c.Thresholds, schema.Threshold{Subject: "surf_height", Comparator: cmp, Value: float64(k),
				Value2: float64(k+1) * float64(k%2), SIUnit: "m", Surface: "1 m", Sentence: "Surf above 1 m.", Hazard: "h", Line: k, Origin: "rule"})
		}
		if i%5 != 0 {
			c.Metadata = map[string][]string{"tags": []string{"a", "b"}[:i%3], "admonition": {"warning"}}
			if i%7 == 0 {
				c.Metadata["categories"] = []string{"x", "y", "z"}
			}
		}
		rows = append(rows, c)
	}
	return rows
}

// readBack is what a row reads back as: a section path is never nil; a
// vector, quantities, thresholds and header rejects are nil when empty; a
// threshold carries its chunk's path, section path, hash and language, and
// a value2 only in a between; an empty map is none, a map's lists never nil.
func readBack(c schema.Chunk) schema.Chunk {
	if c.SectionPath == nil {
		c.SectionPath = []string{}
	}
	if len(c.Quantities) == 0 {
		c.Quantities = nil
	}
	if len(c.HeaderRejects) == 0 {
		c.HeaderRejects = nil
	}
	ts := c.Thresholds
	c.Thresholds = nil
	for _, t := range ts {
		t.DocPath, t.SectionPath, t.ContentHash, t.Lang = c.DocPath, c.SectionPath, c.ContentHash, c.Lang
		if t.Comparator != schema.ComparatorBetween {
			t.Value2 = 0
		}
		c.Thresholds = append(c.Thresholds, t)
	}
	if len(c.Metadata) == 0 {
		c.Metadata = nil
	}
	for k, v := range c.Metadata {
		c.Metadata[k] = append([]string{}, v...)
	}
	return c
}

// TestRoundTrip: every row reads back as it was written, whole (Each) and
// a document at a time (Cursor), over row groups, batches and pages
// smaller than a row.
func TestRoundTrip(t *testing.T) {
	rows := richRows()
	for _, set := range []writerSettings{shipped, {codec: shipped.codec, embCodec: shipped.embCodec, embEncoding: shipped.embEncoding, pageSize: 64, rowGroupRows: 7, batchRows: 3}} {
		t.Run(fmt.Sprintf("page %d, row group %d, batch %d", set.pageSize, set.rowGroupRows, set.batchRows), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ChunksFile)
			if err := os.WriteFile(path, writeRows(t, set, rows), 0o644); err != nil {
				t.Fatal(err)
			}
			got := readAll(t, path)
			if len(got) != len(rows) {
				t.Fatalf("got %d rows, want %d", len(got), len(rows))
			}
			for i := range rows {
				if want := readBack(rows[i]); !reflect.DeepEqual(got[i], want) {
					g, _ := json.Marshal(got[i])
					w, _ := json.Marshal(want)
					t.Errorf("row %d: got\n%s\nwant\n%s", i, g, w)
				}
			}
		})
	}
}

// readAll reads path with Each and with a Cursor, which must agree.
func readAll(t *testing.T, path string) []schema.Chunk {
	t.Helper()
	cf, err := OpenChunks(path)
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	var each []schema.Chunk
	if err := cf.Each(context.Background(), func(c schema.Chunk) error { each = append(each, c); return nil }); err != nil {
		t.Fatal(err)
	}
	cur, err := cf.Cursor(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close()
	for i := 0; ; i++ {
		c, err := cur.Next()
		if err != nil {
			t.Fatal(err)
		}
		if c == nil {
			if i != len(each) {
				t.Errorf("got %d rows from a cursor, %d from Each", i, len(each))
			}
			break
		}
		if i >= len(each) || !reflect.DeepEqual(*c, each[i]) {
			t.Fatalf("row %d: a cursor and Each disagree", i)
		}
	}
	return each
}
