package deliver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

const tenant = "0a000000-0000-4000-8000-00000000000a"

// TestOpen checks a snapshot opened for delivery is counted and scoped,
// and read back a document at a time, each document's rows together.
func TestOpen(t *testing.T) {
	snap := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	rows := 0
	s, err := deliver.Open(context.Background(), snap, tenant, func(schema.Chunk) error { rows++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if s.Ref.Documents != 3 || s.Ref.Rows != 7 || rows != 7 || s.Label != stagestest.SourceLabel || s.Tenant.String() != tenant {
		t.Errorf("got %d documents, %d rows (%d seen), label %q, tenant %s; want 3, 7, 7, %q, %s",
			s.Ref.Documents, s.Ref.Rows, rows, s.Label, s.Tenant, stagestest.SourceLabel, tenant)
	}
	var paths []string
	err = s.Documents(context.Background(), func(doc []schema.Chunk) error {
		for _, c := range doc {
			if c.DocID != doc[0].DocID {
				t.Errorf("document %s holds a row of %s", doc[0].DocPath, c.DocPath)
			}
		}
		paths = append(paths, doc[0].DocPath)
		return nil
	})
	if got := strings.Join(paths, " "); err != nil || got != "pt-BR/lore/joaquina.md safety/rules.md waves.md" {
		t.Errorf("got documents %q, %v", got, err)
	}
	if _, err := deliver.Open(context.Background(), snap, "", nil); err == nil || !strings.Contains(err.Error(), "name the tenant with --tenant UUID") {
		t.Errorf("no tenant: got %v, want the tenant asked for", err)
	}
	if a, b := deliver.VersionID("aa"), deliver.VersionID("ab"); a == b || a.Version() != 5 || a != deliver.VersionID("aa") {
		t.Errorf("VersionID: got %s and %s, want distinct stable UUIDv5s", a, b)
	}
}
