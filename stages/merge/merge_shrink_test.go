package merge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
)

// TestMergeShrink: a merge is held to publish.max_shrink as given, 0 (no
// document may go) included: a zero is a setting, not a setting left out
// (a merge read it as the default, half the documents).
func TestMergeShrink(t *testing.T) {
	dir := copyCorpus(t, "../../corpus/ocean", nil)
	cfg := testConfig(dir, "", 1).Config
	offline := func() stages.Options { return stages.Options{} }
	published := filepath.Join(t.TempDir(), "knowledge")
	if _, err := Merge(context.Background(), runShards(t, cfg, 2, t.TempDir(), offline, ""), Config{Publish: cfg.Publish},
		publish.PublishTarget(published, 3, ""), stages.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "rip-currents.md")); err != nil {
		t.Fatal(err)
	}
	parts := runShards(t, cfg, 2, t.TempDir(), offline, "")
	tests := []struct {
		name      string
		maxShrink float64
		want      error
	}{
		{"none may go", 0, stages.ErrShrink},
		{"the default", settings.DefaultConfig().Publish.MaxShrink, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(context.Background(), parts, Config{Publish: settings.PublishConfig{MaxShrink: tt.maxShrink}}, publish.PublishTarget(published, 3, ""), stages.Options{})
			if !errors.Is(err, tt.want) {
				t.Errorf("max_shrink %g, one document of %d gone: got %v, want %v", tt.maxShrink, 29, err, tt.want)
			}
		})
	}
}
