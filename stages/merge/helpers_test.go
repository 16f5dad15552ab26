package merge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/formats"
	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// The test helpers of stages' own tests that the merge's use.

// runConfig is a test run: its config and its --out folder.
type runConfig struct {
	settings.Config
	Out string
}

func testConfig(corpusDir, out string, workers int) runConfig {
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers, cfg.SourceLabel = corpusDir, workers, stagestest.SourceLabel // a copied corpus's folder is not its label
	return runConfig{cfg, out}
}

// copyCorpus copies the corpus at src into a temporary folder, so a test
// can edit it, and adds files.
func copyCorpus(t *testing.T, src string, extra map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dst, rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range extra {
		if err := writeFile(filepath.Join(dst, rel), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// backendConfig fills the fields of a backend config that a run's config
// decides, as the command line does.
func backendConfig(cfg settings.Config, bc models.BackendConfig) models.BackendConfig {
	bc.Dims, bc.BatchSize, bc.HeaderMaxChars, bc.MaxDims = cfg.Embed.Dims, cfg.Embed.BatchSize, cfg.Header.MaxChars, cfg.Embed.MaxDims
	return bc
}

// shardOf is shard k of n bounded by the listing of the corpus at dir, as
// a run of it bounds its shard.
func shardOf(t *testing.T, dir string, k, n int) shard.Shard {
	t.Helper()
	l, err := corpus.ScanFiltered(dir, corpus.Filter{}, formats.All)
	if err != nil {
		t.Fatal(err)
	}
	return shard.Shard{Index: k, Count: n}.Of(l)
}
