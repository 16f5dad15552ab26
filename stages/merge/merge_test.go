package merge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/corpus/shard"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// shardCorpus is the shipped corpus with a rejected document, a draft, a
// warning, a skipped file and a name that is not UTF-8: every kind of line a
// report has.
func shardCorpus(t *testing.T) string {
	t.Helper()
	return copyCorpus(t, "../../corpus/ocean", map[string]string{
		"zz-bad.md":          "# No source\n\ntext\n",
		"drafts/wip.md":      "---\ntitle: WIP\nsource: https://x\ndraft: true\n---\ntext\n",
		"warn.md":            "# T\nSource: https://x\nAuthor: me\n\nThe flag is red when waves exceed 2 m.\n",
		".hidden/notes.md":   "# hidden\n",
		"ch\xffarles/rip.md": "# bad name\n",
	})
}

// runShards runs every shard of cfg's corpus into parts under dir and
// returns the parts' folders.
func runShards(t *testing.T, cfg settings.Config, n int, dir string, opt func() stages.Options, prev string) []string {
	t.Helper()
	var parts []string
	for k := range n {
		c := cfg
		c.Shard = shard.Shard{Index: k, Count: n}
		out := filepath.Join(dir, c.Shard.Name())
		res, err := stages.Run(context.Background(), c, publish.OutTarget(out, prev), opt())
		if err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		if res.Manifest.Shard == nil || res.Manifest.Shard.Index != k {
			t.Fatalf("shard %d/%d: manifest shard %+v", k, n, res.Manifest.Shard)
		}
		parts = append(parts, out)
	}
	return parts
}

// TestMergeEqualsWholeRun: the merge of N parts is the whole run's snapshot,
// byte for byte where a run does not put its own id or clock: chunks,
// thresholds, every diagnostic (diagnostics.jsonl), counts, fingerprints
// and the report's diagnostics, sampled and counted.
func TestMergeEqualsWholeRun(t *testing.T) {
	dir := shardCorpus(t)
	srv := modelfake.New(modelfake.Options{Dims: 16})
	defer srv.Close()
	tests := []struct {
		name   string
		models bool
		shards []int
	}{
		{"offline", false, []int{1, 2, 4, 7}},
		{"models", true, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(dir, "", 2).Config
			cfg.RequireSource = true
			opt := func() stages.Options { return stages.Options{ToolVersion: "test"} }
			if tt.models {
				cfg.Embed.Dims = 16
				opt = func() stages.Options {
					h, e, err := backends.Open(context.Background(), backendConfig(cfg, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
					if err != nil {
						t.Fatal(err)
					}
					return stages.Options{ToolVersion: "test", Headers: h, Embedder: e}
				}
			}
			whole := filepath.Join(t.TempDir(), "whole")
			want, err := stages.Run(context.Background(), cfg, publish.OutTarget(whole, ""), opt())
			if err != nil {
				t.Fatal(err)
			}
			if want.Manifest.Counts.Rejected == 0 || want.Manifest.Counts.Drafts == 0 || want.Manifest.Counts.Skipped == 0 {
				t.Fatalf("the corpus should have a rejected document, a draft and skipped files: %+v", want.Manifest.Counts)
			}
			for _, n := range tt.shards {
				parts := runShards(t, cfg, n, t.TempDir(), opt, "")
				merged := filepath.Join(t.TempDir(), "merged")
				got, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(merged, ""), stages.Options{})
				if err != nil {
					t.Fatalf("%d shards: merge: %v", n, err)
				}
				for _, name := range []string{artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DiagnosticsFile, artifacts.DocumentsFile} {
					if !bytes.Equal(readFile(t, filepath.Join(whole, name)), readFile(t, filepath.Join(merged, name))) {
						t.Errorf("%d shards: %s differs from the whole run's", n, name)
					}
				}
				wm, gm := want.Manifest, got.Manifest
				for _, c := range []struct{ what, want, got string }{
					{"counts", jsonOf(t, wm.Counts), jsonOf(t, gm.Counts)},
					{"diagnostic counts", jsonOf(t, wm.Diagnostics), jsonOf(t, gm.Diagnostics)},
					{"corpus fingerprint", wm.CorpusFingerprint, gm.CorpusFingerprint},
					{"input fingerprint", wm.InputFingerprint, gm.InputFingerprint},
					{"config, build, models", wm.ConfigHash + wm.BuildID + wm.HeaderWriter + jsonOf(t, wm.Embedder) + jsonOf(t, wm.CacheKeys),
						gm.ConfigHash + gm.BuildID + gm.HeaderWriter + jsonOf(t, gm.Embedder) + jsonOf(t, gm.CacheKeys)},
					{"files", jsonOf(t, fileHashes(wm, artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DiagnosticsFile)), jsonOf(t, fileHashes(gm, artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DiagnosticsFile))},
					{"calls (embedding requests aside: batches end at a part's end)", jsonOf(t, noEmbedCalls(wm.Calls)), jsonOf(t, noEmbedCalls(gm.Calls))},
					{"diagnostics", jsonOf(t, want.Report.Diagnostics), jsonOf(t, got.Report.Diagnostics)},
					{"diagnostics by code", jsonOf(t, want.Report.DiagnosticsByCode), jsonOf(t, got.Report.DiagnosticsByCode)},
					{"setup diagnostics", strconv.Itoa(want.Report.SetupDiagnostics), strconv.Itoa(got.Report.SetupDiagnostics)},
					{"skipped", jsonOf(t, want.Report.Skipped), jsonOf(t, got.Report.Skipped)},
					{"languages", jsonOf(t, want.Report.LangFrom), jsonOf(t, got.Report.LangFrom)},
					{"chunk sizes (the parts' tallies added up)", jsonOf(t, want.Report.ChunkSizes), jsonOf(t, got.Report.ChunkSizes)},
					{"model rejects", jsonOf(t, modelRejects(want.Report)), jsonOf(t, modelRejects(got.Report))},
					{"status", string(want.Status), string(got.Status)},
				} {
					if c.want != c.got {
						t.Errorf("%d shards: %s: got %s, want %s", n, c.what, c.got, c.want)
					}
				}
				if gm.Shard != nil {
					t.Errorf("%d shards: the merge is marked as a part: %+v", n, gm.Shard)
				}
				if vr, err := verify.Verify(merged); err != nil || !vr.OK() {
					t.Errorf("%d shards: the merge does not verify: %v %v", n, err, vr.Problems())
				}
				if n != 2 {
					continue
				}
				// Parts whose size tallies do not count their rows (a
				// manifest edited), then parts without (an older ingest's):
				// the merge counts the sizes from the rows' text, to the same
				// figures.
				for _, spoil := range []struct {
					name string
					f    func(*schema.SizeTally) *schema.SizeTally
				}{
					{"with a tally of one row more", func(s *schema.SizeTally) *schema.SizeTally {
						s.Add(schema.Chunk{Kind: schema.KindProse, Element: schema.ElementParagraph, Text: "one more"})
						return s
					}},
					{"without tallies", func(*schema.SizeTally) *schema.SizeTally { return nil }},
				} {
					for _, p := range parts {
						m, err := artifacts.ReadManifest(p)
						if err != nil {
							t.Fatal(err)
						}
						if m.Shard.Sizes == nil {
							t.Fatalf("part %s has no size tally", p)
						}
						m.Shard.Sizes = spoil.f(m.Shard.Sizes)
						if err := os.WriteFile(filepath.Join(p, artifacts.ManifestFile), []byte(jsonOf(t, m)), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					out := filepath.Join(t.TempDir(), "spoilt")
					res, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(out, ""), stages.Options{})
					if err != nil {
						t.Fatalf("%d shards %s: merge: %v", n, spoil.name, err)
					}
					if a, b := jsonOf(t, want.Report.ChunkSizes), jsonOf(t, res.Report.ChunkSizes); a != b {
						t.Errorf("%d shards %s: chunk sizes %s, want %s", n, spoil.name, b, a)
					}
					if !bytes.Equal(readFile(t, filepath.Join(whole, artifacts.ChunksFile)), readFile(t, filepath.Join(out, artifacts.ChunksFile))) {
						t.Errorf("%d shards %s: chunks.parquet differs from the whole run's", n, spoil.name)
					}
				}
			}
		})
	}
}

func noEmbedCalls(c artifacts.Calls) artifacts.Calls {
	c.EmbedCalls = 0
	return c
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func fileHashes(m artifacts.Manifest, names ...string) map[string]artifacts.FileInfo {
	out := map[string]artifacts.FileInfo{}
	for _, n := range names {
		out[n] = m.Files[n]
	}
	return out
}

func modelRejects(r artifacts.Report) any {
	if r.Models == nil {
		return nil
	}
	return []any{r.Models.Rejects, r.Models.Ungrounded}
}

// TestMergeRefuses: parts that do not make one run are refused before
// anything is written, each with an error that says why.
func TestMergeRefuses(t *testing.T) {
	dir := shardCorpus(t)
	cfg := testConfig(dir, "", 2).Config
	opt := func() stages.Options { return stages.Options{ToolVersion: "test"} }
	parts := runShards(t, cfg, 3, t.TempDir(), opt, "")
	whole := filepath.Join(t.TempDir(), "whole")
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(whole, ""), opt()); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Chunk.Max++
	otherParts := runShards(t, other, 3, t.TempDir(), opt, "")
	edited := copyCorpus(t, dir, map[string]string{"new.md": "# New\nSource: https://x\n\ntext\n"})
	editedCfg := cfg
	editedCfg.Corpus = edited
	editedParts := runShards(t, editedCfg, 3, t.TempDir(), opt, "")
	two := runShards(t, cfg, 2, t.TempDir(), opt, "")
	tonight := cfg
	tonight.ShardRun = "night-2"
	tonightParts := runShards(t, tonight, 3, t.TempDir(), opt, "")
	older := stagestest.Copy(t, parts[2]) // as an ingest before diagnostics.jsonl made it
	m, err := artifacts.ReadManifest(older)
	if err != nil {
		t.Fatal(err)
	}
	delete(m.Files, artifacts.DiagnosticsFile)
	if err := errors.Join(os.Remove(filepath.Join(older, artifacts.DiagnosticsFile)), artifacts.WriteJSON(filepath.Join(older, artifacts.ManifestFile), m)); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name  string
		parts []string
		want  string
	}{
		{"a shard missing", parts[:2], "missing shard [2]"},
		{"a shard twice", []string{parts[0], parts[1], parts[1]}, "shard 1 of 3 given twice"},
		{"a whole snapshot", []string{parts[0], parts[1], whole}, "is a whole snapshot"},
		{"another config", []string{parts[0], parts[1], otherParts[2]}, "differ in config"},
		{"the corpus changed between shards", []string{parts[0], parts[1], editedParts[2]}, "corpus listing"},
		{"shard counts differ", []string{parts[0], parts[1], two[1]}, "shard 1 of 2"},
		{"none", nil, "no part given"},
		{"a part of another run", []string{tonightParts[0], tonightParts[1], parts[2]}, `run ("night-2" and "": a part left from another run?)`},
		{"a part made before diagnostics.jsonl", []string{parts[0], parts[1], older}, "has no diagnostics.jsonl (made by an older ingest)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			_, err := Merge(context.Background(), tt.parts, Config{}, publish.OutTarget(out, ""), stages.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error saying %q", err, tt.want)
			}
			if tt.name != "a whole snapshot" && tt.name != "none" && !errors.Is(err, ErrMismatch) {
				t.Errorf("got %v, want ErrMismatch", err)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("got %s written, want nothing", out)
			}
		})
	}

	if _, err := Merge(context.Background(), tonightParts, Config{Run: "night-3"}, publish.OutTarget(filepath.Join(t.TempDir(), "m"), ""), stages.Options{}); err == nil || !strings.Contains(err.Error(), `belong to run "night-2", not "night-3"`) {
		t.Errorf("merge --run-id night-3 of night-2's parts: got %v", err)
	}
	if _, err := Merge(context.Background(), tonightParts, Config{Run: "night-2"}, publish.OutTarget(filepath.Join(t.TempDir(), "m"), ""), stages.Options{}); err != nil {
		t.Errorf("merge --run-id night-2 of night-2's parts: %v", err)
	}

	// A part where a whole snapshot is published, and the reverse.
	c := cfg
	c.Shard = shard.Shard{Index: 0, Count: 3}
	if _, err := stages.Run(context.Background(), c, publish.OutTarget(whole, ""), opt()); err == nil || !strings.Contains(err.Error(), "holds a whole snapshot") {
		t.Errorf("a part over a whole snapshot: got %v", err)
	}
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(parts[0], ""), opt()); err == nil || !strings.Contains(err.Error(), "holds a part") {
		t.Errorf("a whole run over a part: got %v", err)
	}
	if _, err := Merge(context.Background(), parts, Config{}, publish.OutTarget(parts[0], ""), stages.Options{}); err == nil || !strings.Contains(err.Error(), "holds a part") {
		t.Errorf("a merge over a part: got %v", err)
	}
}

// TestMergeRefusesOtherContent: parts of one run id that read different
// contents under the same paths — a document edited between two shards'
// runs, or while its own shard ran — are refused, before anything is
// written. Before, the listing (paths only) matched and the merge
// published a snapshot of a corpus that never existed: its fingerprint was
// neither version's.
func TestMergeRefusesOtherContent(t *testing.T) {
	dir := shardCorpus(t)
	cfg := testConfig(dir, "", 2).Config
	cfg.ShardRun = "night-1"
	opt := func() stages.Options { return stages.Options{ToolVersion: "test"} }
	parts := runShards(t, cfg, 3, t.TempDir(), opt, "")
	b, err := os.ReadFile(filepath.Join(dir, "rip-currents.md"))
	if err != nil {
		t.Fatal(err)
	}
	edited := copyCorpus(t, dir, map[string]string{"rip-currents.md": strings.Replace(string(b), "stay calm", "keep calm", 1)})
	editedCfg := cfg
	editedCfg.Corpus = edited
	editedParts := runShards(t, editedCfg, 3, t.TempDir(), opt, "")
	// A part that fingerprinted the corpus before a document changed, and
	// read the new text: its manifest says the old content.
	k := 0
	for !shardOf(t, dir, k, 3).Has("rip-currents.md") {
		k++
	}
	mixed := append([]string{}, parts...)
	midRun := filepath.Join(t.TempDir(), "shard-"+strconv.Itoa(k)+"-of-3")
	stagestest.CopyTo(t, editedParts[k], midRun)
	mixed[k] = midRun
	m, err := artifacts.ReadManifest(midRun)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := artifacts.ReadManifest(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	m.Shard.Content = orig.Shard.Content
	if err := artifacts.WriteJSON(filepath.Join(midRun, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		parts []string
		want  string
	}{
		{"a document edited between shards", []string{parts[0], parts[1], editedParts[2]}, "differ in corpus content"},
		{"a document edited while its shard ran", mixed, "not the corpus every part fingerprinted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "merged")
			_, err := Merge(context.Background(), tt.parts, Config{Run: "night-1"}, publish.OutTarget(out, ""), stages.Options{})
			if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want ErrMismatch saying %q", err, tt.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("got %s written, want nothing", out)
			}
		})
	}
	if _, err := Merge(context.Background(), editedParts, Config{Run: "night-1"}, publish.OutTarget(filepath.Join(t.TempDir(), "m"), ""), stages.Options{}); err != nil {
		t.Errorf("the parts of one corpus: %v", err)
	}
}

// TestShardReuse: a shard's run reuses the previous merged snapshot's
// headers and vectors (no model call for an unchanged corpus), and counts
// as superseded only its own documents' chunks.
func TestShardReuse(t *testing.T) {
	dir := shardCorpus(t)
	srv := modelfake.New(modelfake.Options{Dims: 16})
	defer srv.Close()
	cfg := testConfig(dir, "", 2).Config
	cfg.Embed.Dims = 16
	opt := func() stages.Options {
		h, e, err := backends.Open(context.Background(), backendConfig(cfg, models.BackendConfig{LLM: "ollama:qwen2.5:7b", Embedder: "ollama:bge-m3", Addrs: map[string]string{"ollama": srv.URL}}))
		if err != nil {
			t.Fatal(err)
		}
		return stages.Options{ToolVersion: "test", Headers: h, Embedder: e}
	}
	const n = 3
	published := filepath.Join(t.TempDir(), "knowledge")
	parts := runShards(t, cfg, n, t.TempDir(), opt, "")
	first, err := Merge(context.Background(), parts, Config{}, publish.PublishTarget(published, 3, ""), stages.Options{})
	if err != nil {
		t.Fatal(err)
	}

	// Unchanged: every shard reuses the published snapshot.
	calls := srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed)
	prev := filepath.Join(published, first.Published.Name)
	parts = runShards(t, cfg, n, t.TempDir(), opt, prev)
	if got := srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed) - calls; got != 0 {
		t.Errorf("unchanged corpus: got %d model calls, want 0", got)
	}
	second, err := Merge(context.Background(), parts, Config{}, publish.PublishTarget(published, 3, ""), stages.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Manifest.Calls.Superseded != 0 || second.Manifest.Files[artifacts.ChunksFile] != first.Manifest.Files[artifacts.ChunksFile] {
		t.Errorf("unchanged corpus: got %d superseded, chunks %v, want 0 and the same file as %v",
			second.Manifest.Calls.Superseded, second.Manifest.Files[artifacts.ChunksFile], first.Manifest.Files[artifacts.ChunksFile])
	}

	// One document removed: only its shard counts its chunks as superseded.
	gone := "rip-currents.md"
	goneChunks := 0
	chunks, err := artifacts.ReadChunks(filepath.Join(prev, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		if c.DocPath == gone {
			goneChunks++
		}
	}
	if err := os.Remove(filepath.Join(dir, gone)); err != nil {
		t.Fatal(err)
	}
	total := 0
	for k := range n {
		c := cfg
		c.Shard = shard.Shard{Index: k, Count: n}
		res, err := stages.Run(context.Background(), c, publish.OutTarget(filepath.Join(t.TempDir(), "part"), prev), opt())
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if shardOf(t, dir, k, n).Has(gone) { // the gone document's shard, by the listing without it
			want = goneChunks
		}
		if got := res.Manifest.Calls.Superseded; got != want {
			t.Errorf("shard %d: got %d chunks superseded, want %d", k, got, want)
		}
		total += res.Manifest.Calls.Superseded
	}
	if goneChunks == 0 || total != goneChunks {
		t.Errorf("got %d superseded over all shards, want %d (the removed document's chunks)", total, goneChunks)
	}
}

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    shard.Shard
		wantErr string
	}{
		{"0/4", shard.Shard{Index: 0, Count: 4}, ""},
		{" 3/4 ", shard.Shard{Index: 3, Count: 4}, ""},
		{"4/4", shard.Shard{}, "numbered 0 to 3"},
		{"-1/4", shard.Shard{}, "numbered 0 to 3"},
		{"1/0", shard.Shard{}, "want 1 to 10000"},
		{"1", shard.Shard{}, "want K/N"},
		{"a/b", shard.Shard{}, "two whole numbers"},
	}
	for _, tt := range tests {
		got, err := shard.Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: got %v, want an error saying %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: got %v %v, want %v", tt.in, got, err, tt.want)
		}
	}
}
