package extractive

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
)

// extractivePins is, per extractive writer name, the hash of the headers it
// writes for testdata/header-inputs.jsonl. The name is part of every reuse
// key: a change to the header algorithm under the same name would have the
// next run reuse the last snapshot's headers as if nothing had changed.
var extractivePins = map[string]string{
	"extractive-v5": "fc0d6859acab3e788f7d0969009f8202eb74e7ae4041c6e034f07bf4df79c377",
}

// TestExtractiveVersionPinned fails when the extractive header changes
// without a new writer name, and names the hash to pin with a new one.
func TestExtractiveVersionPinned(t *testing.T) {
	f, err := os.Open("testdata/header-inputs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var in struct {
			SectionPath []string       `json:"section_path"`
			Element     schema.Element `json:"element"`
			Text        string         `json:"text"`
			LeadIn      string         `json:"lead_in"`
		}
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			t.Fatal(err)
		}
		c := schema.Chunk{SectionPath: in.SectionPath, Element: in.Element, Text: in.Text, LeadIn: in.LeadIn}
		h.Write([]byte(Header("Title", c, models.DefaultHeaderChars) + "\n"))
		n++
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("read %d inputs: %v", n, err)
	}
	got := hex.EncodeToString(h.Sum(nil))
	name := New(models.DefaultHeaderChars).Name()
	want, ok := extractivePins[name]
	switch {
	case !ok || want == "":
		t.Fatalf("writer %s has no pinned hash: pin %q: %q", name, name, got)
	case got != want:
		t.Errorf("the extractive headers changed (hash %s, pinned %s for %s): give Extractive a new Name, so no snapshot's headers are reused as the new algorithm's, and pin this hash under it", got, want, name)
	}
}
