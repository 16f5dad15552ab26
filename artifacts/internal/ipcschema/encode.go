package ipcschema

import (
	"encoding/base64"
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"
)

// Key is the key-value entry in which Arrow writers store a file's Arrow
// schema; Arrow readers take a column's type from it where Parquet has
// none of its own (a fixed-size list).
const Key = "ARROW:schema"

// Encode is the value of the ARROW:schema entry for fields and metadata: an
// Arrow IPC stream of one schema message, base64.
//
// The bytes are arrow-go's (v18, pqarrow with WithStoreSchema): the same
// flatbuffers built in the same order (arrow/ipc's schemaToFB and
// writeMessageFB), framed as its ipc.Writer frames a schema and the end of
// the stream. artifacts' TestArrowSchemaAsArrowWrote holds it to files
// arrow-go wrote.
func Encode(fields []Field, metadata [][2]string) string {
	b := flatbuffers.NewBuilder(1024)
	offsets := make([]flatbuffers.UOffsetT, len(fields))
	for i, f := range fields {
		offsets[i] = arrowField(b, f)
	}
	fieldsFB := uoffsetVector(b, offsets)
	metaFB := arrowMetadata(b, metadata)

	b.StartObject(4)            // Schema
	b.PrependInt16Slot(0, 0, 0) // endianness: little
	b.PrependUOffsetTSlot(1, fieldsFB, 0)
	b.PrependUOffsetTSlot(2, metaFB, 0)
	schemaFB := b.EndObject()

	const (
		metadataV5   = 4 // MetadataVersion.V5
		headerSchema = 1 // MessageHeader.Schema
		continuation = 0xFFFFFFFF
		ipcAlignment = 8
	)
	b.StartObject(5) // Message
	b.PrependInt16Slot(0, metadataV5, 0)
	b.PrependByteSlot(1, headerSchema, 0)
	b.PrependUOffsetTSlot(2, schemaFB, 0)
	b.PrependInt64Slot(3, 0, 0) // body length
	b.PrependUOffsetTSlot(4, 0, 0)
	b.Finish(b.EndObject())
	msg := b.FinishedBytes()

	padded := len(msg) + 8
	padded += (ipcAlignment - padded%ipcAlignment) % ipcAlignment
	out := make([]byte, padded+8)
	binary.LittleEndian.PutUint32(out, continuation)
	binary.LittleEndian.PutUint32(out[4:], uint32(padded-8))
	copy(out[8:], msg)
	binary.LittleEndian.PutUint32(out[padded:], continuation) // end of stream: a zero-length message
	return base64.StdEncoding.EncodeToString(out)
}

// Arrow's type ids (Schema.fbs, union Type).
const (
	arrowInt           = 2
	arrowFloatingPoint = 3
	arrowUtf8          = 5
	arrowBool          = 6
	arrowList          = 12
	arrowStruct        = 13
	arrowFixedSizeList = 16
	arrowMap           = 17
)

// arrowField is fieldToFB of arrow/ipc for the types chunks.parquet has.
func arrowField(b *flatbuffers.Builder, f Field) flatbuffers.UOffsetT {
	name := b.CreateString(f.Name)
	var (
		typ  byte
		off  flatbuffers.UOffsetT
		kids []flatbuffers.UOffsetT
	)
	t := f.Type
	switch t.Kind {
	case KindBool:
		typ, off = arrowBool, emptyTable(b)
	case KindUTF8:
		typ, off = arrowUtf8, emptyTable(b)
	case KindInt32, KindInt64:
		bits := int32(32)
		if t.Kind == KindInt64 {
			bits = 64
		}
		typ = arrowInt
		b.StartObject(2)
		b.PrependInt32Slot(0, bits, 0)
		b.PrependBoolSlot(1, true, false) // signed
		off = b.EndObject()
	case KindFloat32, KindFloat64:
		precision := int16(1) // SINGLE
		if t.Kind == KindFloat64 {
			precision = 2 // DOUBLE
		}
		typ = arrowFloatingPoint
		b.StartObject(1)
		b.PrependInt16Slot(0, precision, 0)
		off = b.EndObject()
	case KindStruct:
		typ = arrowStruct
		for _, c := range t.Fields {
			kids = append(kids, arrowField(b, c))
		}
		b.StartObject(0)
		// arrow-go prepends the children's offsets inside the (empty)
		// Struct_ table too: bytes no reader looks at, kept to be its bytes.
		for i := len(kids) - 1; i >= 0; i-- {
			b.PrependUOffsetT(kids[i])
		}
		off = b.EndObject()
	case KindList:
		typ = arrowList
		kids = append(kids, arrowField(b, *t.Elem))
		off = emptyTable(b)
	case KindFixedSizeList:
		typ = arrowFixedSizeList
		kids = append(kids, arrowField(b, *t.Elem))
		b.StartObject(1)
		b.PrependInt32Slot(0, t.Len, 0)
		off = b.EndObject()
	case KindMap:
		typ = arrowMap
		entries := Field{Name: "entries", Type: StructOf(Field{Name: "key", Type: UTF8}, *t.Elem)}
		kids = append(kids, arrowField(b, entries))
		b.StartObject(1)
		b.PrependBoolSlot(0, false, false) // keys sorted
		off = b.EndObject()
	}
	children := uoffsetVector(b, kids)

	b.StartObject(7) // Field
	b.PrependUOffsetTSlot(0, name, 0)
	b.PrependBoolSlot(1, f.Nullable, false)
	b.PrependByteSlot(2, typ, 0)
	b.PrependUOffsetTSlot(3, off, 0)
	b.PrependUOffsetTSlot(4, 0, 0) // dictionary: none
	b.PrependUOffsetTSlot(5, children, 0)
	b.PrependUOffsetTSlot(6, 0, 0) // custom metadata: none
	return b.EndObject()
}

func emptyTable(b *flatbuffers.Builder) flatbuffers.UOffsetT {
	b.StartObject(0)
	return b.EndObject()
}

// arrowMetadata is metadataToFB of arrow/ipc: 0 (absent) when empty.
func arrowMetadata(b *flatbuffers.Builder, metadata [][2]string) flatbuffers.UOffsetT {
	if len(metadata) == 0 {
		return 0
	}
	kvs := make([]flatbuffers.UOffsetT, len(metadata))
	for i, kv := range metadata {
		k, v := b.CreateString(kv[0]), b.CreateString(kv[1])
		b.StartObject(2) // KeyValue
		b.PrependUOffsetTSlot(0, k, 0)
		b.PrependUOffsetTSlot(1, v, 0)
		kvs[i] = b.EndObject()
	}
	return uoffsetVector(b, kvs)
}

func uoffsetVector(b *flatbuffers.Builder, offsets []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartVector(4, len(offsets), 4)
	for i := len(offsets) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offsets[i])
	}
	return b.EndVector(len(offsets))
}
