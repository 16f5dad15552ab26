package reuse

import (
	"context"
	"testing"
)

// TestReuseSchema2: a snapshot of schema 2 (written by the build before
// doc_id took the source, testdata/snapshot-v2) is reused: its headers and
// vectors are keyed as a schema 3 snapshot's are, so an upgrade pays for no
// call again; its rows' new ids are the run's business.
func TestReuseSchema2(t *testing.T) {
	p, err := OpenPrevious(context.Background(), "../../testdata/snapshot-v2")
	if err != nil {
		t.Fatalf("got %v, want the schema 2 snapshot opened for reuse", err)
	}
	defer p.Close()
	if p.Manifest.SchemaVersion != "2" {
		t.Fatalf("got schema %s, want the fixture of schema 2", p.Manifest.SchemaVersion)
	}
	headers, vectors := 0, 0
	for _, path := range []string{"pt-BR/lore/joaquina.md", "pt-BR/temperatura.md", "safety/rules.md", "waves.md"} {
		ru, _, err := p.ForDoc(path)
		if err != nil {
			t.Fatal(err)
		}
		ru = ru.Indexed()
		headers += len(ru.Headers)
		vectors += len(ru.Vectors)
	}
	if want := p.Manifest.Counts.Chunks; headers != want || vectors != want {
		t.Errorf("got %d headers and %d vectors offered, want %d of each", headers, vectors, want)
	}
}
