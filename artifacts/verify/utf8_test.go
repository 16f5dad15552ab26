package verify_test

import (
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestVerifyUTF8: a string that is not UTF-8 fails verify (DuckDB would
// refuse the file), naming the row and column.
func TestVerifyUTF8(t *testing.T) {
	chunks := stagestest.HandChunks("d.md", "A/x", "A/y")
	chunks[1].DocTitle = "bad \xff title"
	rep, err := verify.Verify(stagestest.WriteHand(t, chunks))
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Check(verify.CheckUTF8); c.Status != verify.CheckFailed || len(c.Problems) != 1 || !strings.Contains(c.Problems[0], "doc_title") {
		t.Errorf("got %+v, want the utf8 check failed on doc_title", c)
	}
}
