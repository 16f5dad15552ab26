package ipcschema

import (
	"fmt"
	"strconv"
	"strings"
)

// A Field is a column, or a part of one.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
}

// A Type is a field's Arrow type: one of the few a snapshot has.
type Type struct {
	Kind   Kind
	Elem   *Field  // of a list or a fixed-size list; the value of a map
	Fields []Field // of a struct
	Len    int32   // of a fixed-size list
}

// Kind is the kind of a Type.
type Kind uint8

// The kinds of Type.
const (
	KindUTF8 Kind = iota
	KindBool
	KindInt32
	KindInt64
	KindFloat32
	KindFloat64
	KindList
	KindFixedSizeList
	KindStruct
	KindMap
)

// The primitive types.
var (
	UTF8    = Type{Kind: KindUTF8}
	Bool    = Type{Kind: KindBool}
	Int32   = Type{Kind: KindInt32}
	Int64   = Type{Kind: KindInt64}
	Float32 = Type{Kind: KindFloat32}
	Float64 = Type{Kind: KindFloat64}
)

// ListOf is a list of non-null elements, named "element" as Parquet's
// three-level lists name them (and pqarrow the Arrow field it stores).
func ListOf(t Type) Type {
	return Type{Kind: KindList, Elem: &Field{Name: "element", Type: t}}
}

// FixedSizeListOf is a list of n non-null elements.
func FixedSizeListOf(n int, t Type) Type {
	return Type{Kind: KindFixedSizeList, Elem: &Field{Name: "element", Type: t}, Len: int32(n)}
}

// StructOf is a struct of fields.
func StructOf(fields ...Field) Type { return Type{Kind: KindStruct, Fields: fields} }

// MapOf is a map from strings to nullable values of t.
func MapOf(t Type) Type {
	return Type{Kind: KindMap, Elem: &Field{Name: "value", Type: t, Nullable: true}}
}

// String is t as arrow-go's DataType.String writes it.
func (t Type) String() string {
	switch t.Kind {
	case KindList, KindFixedSizeList:
		s := "list<"
		if t.Kind == KindFixedSizeList {
			s = "fixed_size_list<"
		}
		s += t.Elem.Name + ": " + t.Elem.Type.String()
		if t.Elem.Nullable {
			s += ", nullable"
		}
		if s += ">"; t.Kind == KindFixedSizeList {
			s += "[" + strconv.Itoa(int(t.Len)) + "]"
		}
		return s
	case KindStruct:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Name + ": " + f.Type.String()
			if f.Nullable {
				parts[i] += " nullable"
			}
		}
		return "struct<" + strings.Join(parts, ", ") + ">"
	case KindMap:
		items := ", items_non_nullable>"
		if t.Elem.Nullable {
			items = ", items_nullable>"
		}
		return "map<utf8, " + t.Elem.Type.String() + items
	}
	return [...]string{KindUTF8: "utf8", KindBool: "bool", KindInt32: "int32", KindInt64: "int64",
		KindFloat32: "float32", KindFloat64: "float64"}[t.Kind]
}

// Text is the schema of a Parquet file of fields and key-value metadata as
// arrow-go's Schema.String writes what pqarrow reads: each field with its
// Parquet field id, -1 for none (ingest writes none).
func Text(fields []Field, metadata [][2]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema:\n  fields: %d", len(fields))
	for _, f := range fields {
		nullable := ""
		if f.Nullable {
			nullable = ", nullable"
		}
		fmt.Fprintf(&b, "\n    - %s: type=%s%s\n%*smetadata: [%q: %q]", f.Name, f.Type, nullable, len(f.Name)+2, "", "PARQUET:field_id", "-1")
	}
	if len(metadata) > 0 {
		kvs := make([]string, len(metadata))
		for i, kv := range metadata {
			kvs[i] = fmt.Sprintf("%q: %q", kv[0], kv[1])
		}
		fmt.Fprintf(&b, "\n  metadata: [%s]", strings.Join(kvs, ", "))
	}
	return b.String()
}
