package stages

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
)

// TestManifestRecordsTheFloor: the manifest records the floor
// Options.RelevanceFloor gives for the run's embedder, and none without it.
func TestManifestRecordsTheFloor(t *testing.T) {
	t.Parallel()
	floor := &artifacts.RelevanceFloor{Scale: "s", Embedder: "builtin-hash-v1", Modes: map[string]float64{"hybrid": 0.5}, Method: "m"}
	var asked []string
	tests := []struct {
		name string
		fn   func(string) *artifacts.RelevanceFloor
		want *artifacts.RelevanceFloor
	}{
		{"given", func(emb string) *artifacts.RelevanceFloor { asked = append(asked, emb); return floor }, floor},
		{"none for the embedder", func(string) *artifacts.RelevanceFloor { return nil }, nil},
		{"no hook", nil, nil},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "snap")
		mustRun(t, testConfig(fixtureCorpus, out, 1), Options{RelevanceFloor: tt.fn})
		m, err := artifacts.ReadManifest(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m.RelevanceFloor, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, m.RelevanceFloor, tt.want)
		}
	}
	if len(asked) != 1 || asked[0] != "builtin-hash-v1" {
		t.Errorf("got the hook asked for %v, want the run's embedder once", asked)
	}
}
