package stages

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
)

// TestHealReusesIntactSnapshot: a run repairing a damaged latest reuses
// the answers of the newest intact older snapshot, so it asks the model
// server only for the chunks no intact snapshot holds. Before, a truncated
// parquet, a flipped byte, a deleted snapshot, a garbage pointer or a
// deleted manifest made the repairing run ask for every header and vector
// again.
func TestHealReusesIntactSnapshot(t *testing.T) {
	t.Parallel()
	damages := []struct {
		name   string
		damage func(t *testing.T, pub, latest string)
		intact bool // the snapshot latest named is intact: it holds every answer
	}{
		{"truncated parquet", func(t *testing.T, _, latest string) {
			p := filepath.Join(latest, artifacts.ChunksFile)
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, info.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"flipped byte", func(t *testing.T, _, latest string) {
			p := filepath.Join(latest, artifacts.ChunksFile)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 1
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"deleted snapshot", func(t *testing.T, _, latest string) { os.RemoveAll(latest) }, false},
		{"garbage pointer", func(t *testing.T, pub, _ string) {
			link := filepath.Join(pub, publish.LatestLink)
			os.Remove(link)
			if err := os.Symlink("not-a-snapshot-\x01", link); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"deleted manifest", func(t *testing.T, _, latest string) { os.Remove(filepath.Join(latest, artifacts.ManifestFile)) }, false},
	}
	for _, tt := range damages {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpus(t, "../corpus/ocean", nil)
			pub := filepath.Join(t.TempDir(), "pub")
			// run publishes the corpus with the fake model server and returns
			// the calls it made.
			run := func(what string) (chat, embed int) {
				t.Helper()
				srv := modelfake.New(modelfake.Options{Dims: 64})
				defer srv.Close()
				cfg := testConfig(dir, "", 4)
				cfg.Embed.Dims = 64
				h, e, err := backends.Open(context.Background(), backendConfig(cfg.Config, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Run(context.Background(), cfg.Config, publish.PublishTarget(pub, 5, ""), Options{Headers: h, Embedder: e}); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				return srv.Calls(modelfake.OllamaChat), srv.Calls(modelfake.OllamaEmbed)
			}
			firstChat, _ := run("first night")
			p := filepath.Join(dir, "rip-currents.md")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(b, "\nA rip current can carry a swimmer 100 m out in a minute.\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			editChat, editEmbed := run("an edit")
			if editChat == 0 || editChat*4 > firstChat {
				t.Fatalf("the edit made %d header calls of the first night's %d: want a few", editChat, firstChat)
			}
			latest, err := publish.Latest(pub)
			if err != nil {
				t.Fatal(err)
			}
			tt.damage(t, pub, latest)
			// The repair has the edit's corpus: the older, intact snapshot
			// holds every answer but the edited document's, as it did for the
			// edit's run.
			chat, embed := run("the repair")
			if tt.intact {
				editChat, editEmbed = 0, 0
			}
			if chat != editChat || embed != editEmbed {
				t.Errorf("the repair made %d header and %d embedding calls, want %d and %d (the edited document's only; the first night made %d header calls)",
					chat, embed, editChat, editEmbed, firstChat)
			}
			if _, err := publish.Latest(pub); err != nil {
				t.Errorf("latest after the repair: %v", err)
			}
		})
	}
}
