package merge

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
)

// TestMergeTakesWhole: after an edit, each shard's run takes its unchanged
// documents whole from its previous part (or from the previous merge, given
// as --prev), and the merge of the new parts is the snapshot one run makes
// from scratch: the same chunks.parquet, thresholds.md, diagnostics.jsonl
// and documents.jsonl.
func TestMergeTakesWhole(t *testing.T) {
	const n = 3
	for _, fromMerge := range []bool{false, true} {
		name := map[bool]string{false: "from the parts", true: "from the merge"}[fromMerge]
		t.Run(name, func(t *testing.T) {
			dir := shardCorpus(t)
			cfg := testConfig(dir, "", 2).Config
			cfg.RequireSource = true
			opt := func() stages.Options { return stages.Options{ToolVersion: "test"} }
			partsDir, tmp := t.TempDir(), t.TempDir()
			parts := runShards(t, cfg, n, partsDir, opt, "")
			prevMerge := filepath.Join(tmp, "merged-1")
			if _, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(prevMerge, ""), stages.Options{}); err != nil {
				t.Fatal(err)
			}
			edited := filepath.Join(dir, "rip-currents.md")
			if err := os.WriteFile(edited, append(readFile(t, edited), "\nA sentence added tonight.\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			prev := ""
			if fromMerge {
				prev = prevMerge
			}
			parts = runShards(t, cfg, n, partsDir, opt, prev)
			made := 0
			for _, p := range parts {
				rep, err := artifacts.ReadReport(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range rep.Stages {
					if s.Name == "parse" {
						made += s.Items
					}
				}
			}
			if made != 1 {
				t.Errorf("got %d documents made again over the parts, want 1 (the edited one)", made)
			}
			merged := filepath.Join(tmp, "merged-2")
			if _, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(merged, ""), stages.Options{}); err != nil {
				t.Fatal(err)
			}
			whole := filepath.Join(tmp, "whole")
			if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(whole, ""), opt()); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DiagnosticsFile, artifacts.DocumentsFile} {
				if !bytes.Equal(readFile(t, filepath.Join(whole, name)), readFile(t, filepath.Join(merged, name))) {
					t.Errorf("%s: the merge of parts that took documents whole differs from one run from scratch", name)
				}
			}
		})
	}
}
