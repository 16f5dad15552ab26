package verify_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

var (
	baseCorpus        = stagestest.Base
	writeCorpus       = stagestest.WriteCorpus
	buildSnapshot     = stagestest.Build
	copySnapshot      = stagestest.Copy
	handChunks        = stagestest.HandChunks
	writeHandSnapshot = stagestest.WriteHand
)

func TestVerify(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name       string
		tamper     func(t *testing.T, dir string)
		wantFailed []string
		wantText   string // in a problem of the first failed check
	}{
		{"good", func(*testing.T, string) {}, nil, ""},
		{"truncated chunks.parquet", func(t *testing.T, dir string) {
			path := filepath.Join(dir, artifacts.ChunksFile)
			info, _ := os.Stat(path)
			if err := os.Truncate(path, info.Size()/2); err != nil {
				t.Fatal(err)
			}
		}, []string{verify.CheckFiles, verify.CheckParquet}, "chunks.parquet: "},
		{"wrong schema version in the manifest", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.SchemaVersion = "99" })
		}, []string{verify.CheckSchemaVersion}, `manifest says "99"`},
		{"tampered row count", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) {
				f := m.Files[artifacts.ChunksFile]
				f.Rows++
				m.Files[artifacts.ChunksFile] = f
			})
		}, []string{verify.CheckDeclared, verify.CheckRows}, "files.chunks.parquet.rows 8, its run recorded 7 chunks (audit.jsonl)"},
		{"modified report.json", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, artifacts.ReportFile), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{verify.CheckFiles}, "report.json: 3 bytes"},
		{"missing thresholds.md", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, artifacts.ThresholdsFile)); err != nil {
				t.Fatal(err)
			}
		}, []string{verify.CheckFiles}, "thresholds.md: open"},
		{"tampered counts", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Counts.ByKind["lore"]++; m.Counts.ByLang["xx"] = 1 })
		}, []string{verify.CheckDeclared, verify.CheckCounts}, "counts.by_kind.lore 2, its run recorded 1 (audit.jsonl)"},
		{"wrong dims in the manifest", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Embedder.Dims = 768 })
		}, []string{verify.CheckDeclared, verify.CheckDims}, `its vectors' reuse key says "builtin-hash-v1|dims=1024"`},
		// Issue 31, item 9: what a manifest says of its run, checked against
		// what the files it hashes recorded. Before, each of these verified.
		{"counts.documents 999", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Counts.Documents = 999 })
		}, []string{verify.CheckDeclared}, "counts.documents 999, its run recorded 3 (audit.jsonl)"},
		{"counts.rejected", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Counts.Rejected = 2 })
		}, []string{verify.CheckDeclared}, "counts.rejected 2, its run recorded 0"},
		{"another embedder name", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Embedder.Name = "ollama:nomic-embed-text@sha256:0123" })
		}, []string{verify.CheckDeclared}, `embedder ollama:nomic-embed-text@sha256:0123 (1024 dims), its vectors' reuse key says "builtin-hash-v1|dims=1024"`},
		{"another header writer", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.HeaderWriter = "ollama:qwen3@sha256:0123" })
		}, []string{verify.CheckDeclared}, "header writer ollama:qwen3@sha256:0123, its headers' reuse key says"},
		{"fewer warnings than the report holds", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Diagnostics["error"] = 3 })
		}, []string{verify.CheckDeclared}, "diagnostics.error 3, report.json holds 0"},
		{"more diagnostics.jsonl lines than the report counts", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) {
				f := m.Files[artifacts.DiagnosticsFile]
				f.Rows += 2
				m.Files[artifacts.DiagnosticsFile] = f
			})
		}, []string{verify.CheckDeclared}, "files.diagnostics.jsonl.rows 2, report.json counts 0 diagnostics"},
		{"every problem, not the first", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.SchemaVersion = "99"; m.Counts.Chunks = 1 })
			if err := os.WriteFile(filepath.Join(dir, artifacts.ReportFile), []byte("{}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{verify.CheckFiles, verify.CheckSchemaVersion, verify.CheckRows}, "report.json"},
		{"unreadable manifest", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, artifacts.ManifestFile), []byte("{"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, []string{verify.CheckManifest}, "read manifest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copySnapshot(t, good)
			tt.tamper(t, dir)
			rep, err := verify.Verify(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Failed(); !slices.Equal(got, tt.wantFailed) {
				t.Errorf("got failed checks %v, want %v; problems:\n%s", got, tt.wantFailed, strings.Join(rep.Problems(), "\n"))
			}
			if got, want := rep.OK(), len(tt.wantFailed) == 0; got != want {
				t.Errorf("got OK() %v, want %v", got, want)
			}
			if len(tt.wantFailed) > 0 {
				c := rep.Check(tt.wantFailed[0])
				if !strings.Contains(strings.Join(c.Problems, "\n"), tt.wantText) {
					t.Errorf("got %s problems %q, want one containing %q", c.Name, c.Problems, tt.wantText)
				}
			}
			if len(rep.Checks) != 12 {
				t.Errorf("got %d checks, want all 12 reported", len(rep.Checks))
			}
			if slices.Contains(tt.wantFailed, verify.CheckDeclared) {
				var broken *verify.BrokenError
				if _, err := verify.VerifyFiles(dir); !errors.As(err, &broken) || !strings.Contains(err.Error(), tt.wantText) {
					t.Errorf("VerifyFiles: got %v, want a *BrokenError saying %q", err, tt.wantText)
				}
			}
		})
	}
}

// TestVerifyRows covers what the chunker never writes: rows whose hash,
// id or order is wrong.
func TestVerifyRows(t *testing.T) {
	tests := []struct {
		name       string
		chunks     func() []schema.Chunk
		wantFailed []string
	}{
		{"hand-made and sound", func() []schema.Chunk { return handChunks("d.md", "A/x", "A/y") }, nil},
		{"content hash of other text", func() []schema.Chunk {
			cs := handChunks("d.md", "A/x", "A/y")
			cs[1].ContentHash = cs[0].ContentHash
			return cs
		}, []string{verify.CheckContentHash}},
		{"chunk id twice", func() []schema.Chunk {
			cs := handChunks("d.md", "A/x", "A/y")
			cs[1].ChunkID = cs[0].ChunkID
			return cs
		}, []string{verify.CheckUniqueIDs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := verify.Verify(writeHandSnapshot(t, tt.chunks()))
			if err != nil {
				t.Fatal(err)
			}
			if got := rep.Failed(); !slices.Equal(got, tt.wantFailed) {
				t.Errorf("got failed checks %v, want %v; problems:\n%s", got, tt.wantFailed, strings.Join(rep.Problems(), "\n"))
			}
		})
	}
}

func TestVerifyErrors(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := verify.VerifyContext(cancelled, good); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v for a cancelled context, want context.Canceled", err)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := verify.Verify(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v for a missing folder, want os.ErrNotExist", err)
	}
}

// TestVerifyVersion2: a snapshot of the release before lead_in verifies, and
// its rows read with no lead-in.
func TestVerifyVersion2(t *testing.T) {
	dir := "../../testdata/v2snapshot/snap"
	rep, err := verify.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Errorf("got failed checks %v (%v), want a version 2 snapshot to verify", rep.Failed(), rep.Problems())
	}
	chunks, err := artifacts.ReadChunks(filepath.Join(dir, artifacts.ChunksFile))
	if err != nil || len(chunks) == 0 {
		t.Fatalf("got %d chunks, %v", len(chunks), err)
	}
	for _, c := range chunks {
		if c.LeadIn != "" || c.Text == "" {
			t.Errorf("%s: got lead-in %q, text %q", c.Key(), c.LeadIn, c.Text)
		}
	}
}
