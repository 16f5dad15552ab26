package artifacts

import (
	"bytes"
	"os"
	"testing"
)

// The ingest builds up to this one write chunks.parquet with arrow-go.
// testdata/arrow-v4/chunks.parquet is one (schema 4, by the build of
// 7d452d7, from ../testdata/corpus: the rows of ../testdata/golden/chunks.dump),
// kept so that a reader written with another library is held to what
// arrow-go wrote.

const (
	arrowV4 = "testdata/arrow-v4/chunks.parquet"
	golden  = "../testdata/golden/chunks.dump"
)

// TestReadsArrowWritten: a file arrow-go wrote reads back row for row as
// the golden dump, which arrow-go's reader made.
func TestReadsArrowWritten(t *testing.T) {
	var got bytes.Buffer
	if err := Dump(&got, arrowV4); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got dump\n%s\nwant %s", got.Bytes(), want)
	}
}
