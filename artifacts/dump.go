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

	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/ocean-safety/ingest/schema"
)

// Dump writes a canonical text form of a chunks.parquet: its Arrow schema,
// its metadata, then one JSON line per row with the embedding shortened to
// its dimensions and a hash. Golden tests compare it; people read it in diffs.
func Dump(w io.Writer, path string) error {
	cf, err := OpenChunks(path)
	if err != nil {
		return err
	}
	defer cf.Close()
	sc, err := pqarrow.FromParquet(cf.pr.MetaData().Schema, nil, cf.pr.MetaData().KeyValueMetadata())
	if err != nil {
		return fmt.Errorf("dump %s: %w", path, err)
	}
	fmt.Fprintf(w, "schema_version: %s\nrows: %d\n%s\n", cf.SchemaVersion, cf.Rows, sc)
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
