package artifacts

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/parquet-go/parquet-go/format"

	"github.com/ocean-safety/ingest/artifacts/internal/ipcschema"
	"github.com/ocean-safety/ingest/schema"
)

// Dump writes a canonical text form of a chunks.parquet: its schema as Arrow
// readers see it, its metadata, then one JSON line per row with the
// embedding shortened to its dimensions and a hash. Golden tests compare it;
// people read it in diffs. The schema is in the words (and layout) of
// arrow-go's, which wrote the goldens.
func Dump(w io.Writer, path string) error {
	cf, err := OpenChunks(path)
	if err != nil {
		return err
	}
	defer cf.Close()
	fmt.Fprintf(w, "schema_version: %s\nrows: %d\n%s\n", cf.SchemaVersion, cf.Rows, cf.describe())
	return cf.Each(context.Background(), func(c schema.Chunk) error {
		row := struct {
			schema.Chunk
			Embedding string `json:"embedding"` // shadows the vector
		}{c, VectorDigest(c.Embedding)}
		b, err := json.Marshal(row)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	})
}

// VectorDigest names a vector by its size and the hash of its bits.
func VectorDigest(v []float32) string {
	h := sha256.New()
	var b [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		h.Write(b[:])
	}
	return fmt.Sprintf("%d×f32 sha256:%s", len(v), hex.EncodeToString(h.Sum(nil))[:16])
}

// describe is the file's schema as arrow-go's Schema.String wrote it: the
// columns of chunkFields the file has (findLeaves found them, at their
// levels), and its metadata.
func (cf *ChunkFile) describe() string {
	var fields []field
	for _, f := range chunkFields(cf.Dims) {
		if cf.head.Root().Column(f.Name) != nil {
			fields = append(fields, f)
		}
	}
	var meta [][2]string
	for _, kv := range cf.metadata() {
		meta = append(meta, [2]string{kv.Key, kv.Value})
	}
	return ipcschema.Text(fields, meta)
}

// metadata is the file's key-value metadata but ARROW:schema, ingest's keys
// first in the order it writes them.
func (cf *ChunkFile) metadata() []format.KeyValue {
	ours := fileMetadata(0)
	rank := func(k string) int {
		if i := slices.IndexFunc(ours, func(kv [2]string) bool { return kv[0] == k }); i >= 0 {
			return i
		}
		return len(ours) // the file's others after, in its (parquet-go's, sorted) order
	}
	var out []format.KeyValue
	for _, kv := range cf.head.Metadata().KeyValueMetadata {
		if kv.Key != ipcschema.Key {
			out = append(out, kv)
		}
	}
	slices.SortStableFunc(out, func(a, b format.KeyValue) int { return rank(a.Key) - rank(b.Key) })
	return out
}
