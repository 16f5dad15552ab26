package artifacts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
)

// The ingest builds before this one wrote chunks.parquet with arrow-go.
// testdata/arrow-v4/chunks.parquet is one (schema 4, by the build of
// 7d452d7, from ../testdata/corpus: the rows of testdata/arrow-v4/chunks.dump,
// the golden dump of schema 4), ../testdata/snapshot-v2 another (schema 2).
// These tests hold this build's reader to what they hold, and its writer to
// the layout they have.

const (
	arrowV4     = "testdata/arrow-v4/chunks.parquet"
	arrowV4Dump = "testdata/arrow-v4/chunks.dump"
	arrowV2     = "../testdata/snapshot-v2/chunks.parquet"
)

// TestReadsArrowWritten: a file arrow-go wrote reads back row for row as
// the dump arrow-go's reader made of it (the golden chunks.dump of schema
// 4, kept beside it), its rows without a search_text.
func TestReadsArrowWritten(t *testing.T) {
	var got bytes.Buffer
	if err := Dump(&got, arrowV4); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(arrowV4Dump)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got dump\n%s\nwant %s", got.Bytes(), want)
	}
}

// TestRewritesAsArrowWrote: the rows of a file arrow-go wrote (schema 4),
// written again, dump the same rows, and the new file's Parquet schema is
// the old file's, element for element, with one column after them,
// search_text (schema 5): a required string; its key-value metadata has the
// same keys in the same order, the version 5.
func TestRewritesAsArrowWrote(t *testing.T) {
	rows, err := ReadChunks(arrowV4)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ChunksFile)
	w, err := NewChunkWriter(path, 1024)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rows {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var old, now bytes.Buffer
	if err := Dump(&old, arrowV4); err != nil {
		t.Fatal(err)
	}
	if err := Dump(&now, path); err != nil {
		t.Fatal(err)
	}
	if got, want := dumpRows(now.Bytes()), dumpRows(old.Bytes()); !bytes.Equal(got, want) {
		t.Errorf("got rows\n%s\nwant %s", got, want)
	}
	a, b := readFooter(t, arrowV4), readFooter(t, path)
	if len(b.Schema) != len(a.Schema)+1 {
		t.Fatalf("got %d schema elements, want %d: schema 4's and search_text", len(b.Schema), len(a.Schema)+1)
	}
	root := a.Schema[0]
	root.NumChildren.V++ // the root holds one more column
	a.Schema[0] = root
	var text format.SchemaElement // schema 4's text column: a required string
	for i := range a.Schema {
		if got, want := describeElement(b.Schema[i]), describeElement(a.Schema[i]); got != want {
			t.Errorf("schema element %d: got %s, want %s", i, got, want)
		}
		if a.Schema[i].Name == "text" {
			text = a.Schema[i]
		}
	}
	text.Name = "search_text"
	if got, want := describeElement(b.Schema[len(a.Schema)]), describeElement(text); got != want {
		t.Errorf("last schema element: got %s, want %s", got, want)
	}
	if got, want := b.KeyValueMetadata, a.KeyValueMetadata; len(got) != len(want) {
		t.Errorf("got %d key-value entries, want %d", len(got), len(want))
	}
	for i, kv := range a.KeyValueMetadata {
		if i < len(b.KeyValueMetadata) && b.KeyValueMetadata[i].Key != kv.Key {
			t.Errorf("key-value entry %d: got %q, want %q", i, b.KeyValueMetadata[i].Key, kv.Key)
		}
	}
	if v, _ := lookup(b, keySchemaVersion); v != SchemaVersion {
		t.Errorf("got schema version %q, want %q", v, SchemaVersion)
	}
}

// dumpRows is a dump without its schema: its JSON lines.
func dumpRows(dump []byte) []byte {
	if i := bytes.Index(dump, []byte("\n{")); i >= 0 {
		return dump[i+1:]
	}
	return nil
}

// TestArrowSchemaAsArrowWrote: the ARROW:schema entry is arrow-go's for the
// same columns and metadata, schema 4 and schema 2 alike.
func TestArrowSchemaAsArrowWrote(t *testing.T) {
	v5 := chunkFields(1024)
	tests := []struct {
		name, path string
		fields     []field
		version    string
	}{
		{"schema 4", arrowV4, v5[:searchTextField], "4"},
		{"schema 2", arrowV2, v5[:leafLeadInField], "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, ok := lookup(readFooter(t, tt.path), ipcschema.Key)
			if !ok {
				t.Fatalf("%s has no %s", tt.path, ipcschema.Key)
			}
			meta := [][2]string{{keySchemaVersion, tt.version}, {keyDims, strconv.Itoa(1024)}}
			if got := ipcschema.Encode(tt.fields, meta); got != want {
				t.Errorf("got %s\nwant %s", got, want)
			}
		})
	}
}

// leafLeadInField is the index of lead_in among chunkFields: schema 2 has
// the fields before it; searchTextField that of search_text: schema 4 has
// the fields before it.
const (
	leafLeadInField = 32
	searchTextField = 34
)

func readFooter(t *testing.T, path string) *format.FileMetaData {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	return pf.Metadata()
}

func lookup(md *format.FileMetaData, key string) (string, bool) {
	for _, kv := range md.KeyValueMetadata {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

// describeElement is what a reader takes from a schema element. The
// type_length of a fixed-width type other than FIXED_LEN_BYTE_ARRAY is left
// out: parquet-go sets it to the type's bits (the format allows it: "the
// maximum bit length to store any of the values"), arrow-go did not, and
// readers take it for FIXED_LEN_BYTE_ARRAY only.
func describeElement(e format.SchemaElement) string {
	if e.Type.V != format.FixedLenByteArray {
		e.TypeLength.Valid = false
	}
	var b bytes.Buffer
	b.WriteString(e.Name)
	for _, part := range []struct {
		name  string
		valid bool
		v     any
	}{
		{"type", e.Type.Valid, e.Type.V},
		{"length", e.TypeLength.Valid, e.TypeLength.V},
		{"repetition", e.RepetitionType.Valid, e.RepetitionType.V},
		{"children", e.NumChildren.Valid, e.NumChildren.V},
		{"converted", e.ConvertedType.Valid, e.ConvertedType.V},
		{"scale", e.Scale.Valid, e.Scale.V},
		{"precision", e.Precision.Valid, e.Precision.V},
	} {
		if part.valid {
			b.WriteString(" " + part.name + "=" + fmt.Sprint(part.v))
		}
	}
	b.WriteString(" field_id=" + strconv.Itoa(int(e.FieldID)) + " logical=" + e.LogicalType.String())
	return b.String()
}
