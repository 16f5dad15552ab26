package integrity_test

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/integrity"
	"github.com/ocean-safety/ingest/internal/testsnap"
)

// TestVerifyUTF8: a string that is not UTF-8 fails verify (DuckDB would
// refuse the file), naming the row and column.
func TestVerifyUTF8(t *testing.T) {
	chunks := testsnap.HandChunks("d.md", "A/x", "A/y")
	chunks[1].DocTitle = "bad \xff title"
	rep, err := integrity.Verify(testsnap.WriteHand(t, chunks))
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Check(integrity.CheckUTF8); c.Status != integrity.CheckFailed || len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "doc_title") {
		t.Errorf("got %+v, want the utf8 check failed on doc_title", c)
	}
}
