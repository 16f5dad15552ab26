package artifacts

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"

	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
)

// The Parquet schema of chunks.parquet is the one arrow-go wrote from the
// same columns (three-level lists named list/element, a map's
// key_value/key/value, INT(32) and INT(64) annotations, the root named
// schema), so readers that know the file by its Parquet schema, DuckDB's
// among them, see no change.

// parquetSchema is the Parquet schema of fields, with each leaf's encoding
// and codec chosen by set.
func parquetSchema(fields []field, set writerSettings) *parquet.Schema {
	return parquet.NewSchema("schema", groupOf(fields, "", set))
}

func groupOf(fields []field, prefix string, set writerSettings) group {
	g := make(group, len(fields))
	for i, f := range fields {
		g[i] = namedNode{name: f.Name, Node: parquetNode(f, prefix+f.Name, set)}
	}
	return g
}

// parquetNode is the node of f, whose column path is path.
func parquetNode(f field, path string, set writerSettings) parquet.Node {
	var n parquet.Node
	switch t := f.Type; t.Kind {
	case ipcschema.KindList, ipcschema.KindFixedSizeList: // Parquet has no fixed-size list: ARROW:schema says it is one
		n = parquet.List(parquetNode(*t.Elem, path+".list.element", set))
	case ipcschema.KindStruct:
		n = groupOf(t.Fields, path+".", set)
	case ipcschema.KindMap:
		n = parquet.Map(leafNode(ipcschema.KindUTF8, path+".key_value.key", set), parquetNode(*t.Elem, path+".key_value.value", set))
	default:
		n = leafNode(t.Kind, path, set)
	}
	if f.Nullable {
		return parquet.Optional(n)
	}
	return n
}

func leafNode(kind ipcschema.Kind, path string, set writerSettings) parquet.Node {
	var n parquet.Node
	switch kind {
	case ipcschema.KindUTF8:
		n = parquet.String()
	case ipcschema.KindBool:
		n = parquet.Leaf(parquet.BooleanType)
	case ipcschema.KindInt32:
		n = parquet.Int(32)
	case ipcschema.KindInt64:
		n = parquet.Int(64)
	case ipcschema.KindFloat32:
		n = parquet.Leaf(parquet.FloatType)
	case ipcschema.KindFloat64:
		n = parquet.Leaf(parquet.DoubleType)
	default:
		panic(fmt.Sprintf("artifacts: no leaf of kind %d", kind))
	}
	var (
		enc   encoding.Encoding = &parquet.Plain
		codec compress.Codec    = set.codec
	)
	switch {
	case path == embeddingColumn:
		enc, codec = set.embEncoding, set.embCodec
	case slices.Contains(lowCardinality, path):
		enc = &parquet.RLEDictionary
	}
	return parquet.Compressed(parquet.Encoded(n, enc), codec)
}

// group is a Parquet group whose fields keep their order: parquet-go's own
// Group is a map, and orders its fields by name.
type group []parquet.Field

var _ parquet.Node = group(nil)

func (g group) ID() int                     { return 0 }
func (g group) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g group) Optional() bool              { return false }
func (g group) Repeated() bool              { return false }
func (g group) Required() bool              { return true }
func (g group) Leaf() bool                  { return false }
func (g group) Fields() []parquet.Field     { return g }
func (g group) Encoding() encoding.Encoding { return nil }
func (g group) Compression() compress.Codec { return nil }
func (g group) GoType() reflect.Type        { return reflect.TypeFor[struct{}]() } // rows are written by column, never from Go values
func (g group) String() string {
	var b strings.Builder
	parquet.PrintSchema(&b, "", g)
	return b.String()
}

// namedNode is a field of a group.
type namedNode struct {
	parquet.Node
	name string
}

func (n namedNode) Name() string { return n.name }

// Value is reflection's way to a Go value's field; rows are written by
// column, never from Go values.
func (n namedNode) Value(base reflect.Value) reflect.Value { return reflect.Value{} }
