package artifacts

import (
	"fmt"

	"github.com/parquet-go/parquet-go"

	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
)

// A leaf is a column of values in the Parquet file, with the greatest
// repetition and definition levels its values can have: how many lists
// and how many nullable parts (lists included) lie above it.
type leaf struct {
	path           string // its names from the root, dotted
	kind           parquet.Kind
	maxRep, maxDef int
}

func (l leaf) String() string {
	return fmt.Sprintf("%s at levels %d/%d", l.kind, l.maxRep, l.maxDef)
}

// leavesOf are the leaves of fields in file order: chunkrow's Leaf* constants.
func leavesOf(fields []field) []leaf {
	var out []leaf
	for _, f := range fields {
		out = appendLeaves(out, f, f.Name, 0, 0)
	}
	return out
}

func appendLeaves(out []leaf, f field, path string, rep, def int) []leaf {
	if f.Nullable {
		def++
	}
	switch t := f.Type; t.Kind {
	case ipcschema.KindList, ipcschema.KindFixedSizeList:
		return appendLeaves(out, *t.Elem, path+".list.element", rep+1, def+1)
	case ipcschema.KindStruct:
		for _, c := range t.Fields {
			out = appendLeaves(out, c, path+"."+c.Name, rep, def)
		}
		return out
	case ipcschema.KindMap:
		out = append(out, leaf{path: path + ".key_value.key", kind: parquet.ByteArray, maxRep: rep + 1, maxDef: def + 1})
		return appendLeaves(out, *t.Elem, path+".key_value.value", rep+1, def+1)
	}
	return append(out, leaf{path: path, kind: kindOf[f.Type.Kind], maxRep: rep, maxDef: def})
}

// kindOf is the Parquet type of each Arrow type of a leaf.
var kindOf = map[ipcschema.Kind]parquet.Kind{
	ipcschema.KindUTF8:    parquet.ByteArray,
	ipcschema.KindBool:    parquet.Boolean,
	ipcschema.KindInt32:   parquet.Int32,
	ipcschema.KindInt64:   parquet.Int64,
	ipcschema.KindFloat32: parquet.Float,
	ipcschema.KindFloat64: parquet.Double,
}
