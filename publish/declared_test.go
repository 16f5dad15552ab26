package publish_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// TestVerifyDeclared (issue 34, item 3): a staged snapshot whose files the
// caller vouches for (an unchanged night links the previous snapshot's,
// hashed as it opened them) is verified without reading a row when its run
// recorded what its rows add up to, and Commit does not read it either.
// Each case's chunks.parquet is garbage of the size and hash its manifest
// records, so a row read would fail: only a case that reads no row
// publishes. Before, an unchanged night read every row twice (verify,
// then commit), which doubled its cost.
func TestVerifyDeclared(t *testing.T) {
	t.Parallel()
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name     string
		tamper   func(t *testing.T, dir string)
		wantText string // in a problem; "" for none, and published
		wantRead bool   // the rows were read (the garbage found)
	}{
		{"its run recorded its rows: none read", func(*testing.T, string) {}, "", false},
		{"an older ingest's audit, totals only: the rows are read", func(t *testing.T, dir string) {
			rewrite(t, dir, artifacts.AuditFile, totalsOnly(t, filepath.Join(dir, artifacts.AuditFile)))
		}, verify.CheckParquet + ": ", true},
		{"the manifest miscounts a kind", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Counts.ByKind["lore"]++ })
		}, "counts.by_kind.lore 2, its run recorded 1 (audit.jsonl)", false},
		{"the manifest miscounts the rows", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) {
				f := m.Files[artifacts.ChunksFile]
				f.Rows--
				m.Files[artifacts.ChunksFile] = f
			})
		}, "files.chunks.parquet.rows 6, its run recorded 7 chunks", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st, err := publish.PublishTarget(filepath.Join(t.TempDir(), "pub"), 2, "").Stage()
			if err != nil {
				t.Fatal(err)
			}
			stagestest.CopyTo(t, good, st.Dir)
			chunks := filepath.Join(st.Dir, artifacts.ChunksFile)
			info, err := os.Stat(chunks)
			if err != nil {
				t.Fatal(err)
			}
			rewrite(t, st.Dir, artifacts.ChunksFile, bytes.Repeat([]byte{'x'}, int(info.Size())))
			tt.tamper(t, st.Dir)
			problems, err := st.VerifyDeclared(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(problems, "\n")
			if tt.wantText == "" && len(problems) > 0 || tt.wantText != "" && !strings.Contains(joined, tt.wantText) {
				t.Fatalf("got problems %q, want %q", joined, tt.wantText)
			}
			if read := strings.Contains(joined, verify.CheckParquet+": "); read != tt.wantRead {
				t.Errorf("got the rows read %v (problems %q), want %v", read, joined, tt.wantRead)
			}
			pub, err := st.Commit(context.Background())
			if tt.wantText != "" {
				if err == nil {
					t.Errorf("committed %+v, want the snapshot refused", pub)
				}
				return
			}
			if err != nil {
				t.Fatalf("commit read what was vouched for: %v", err)
			}
		})
	}
}

// rewrite replaces a snapshot file and records its new size and hash in
// the manifest, as the file's own run would have.
func rewrite(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := artifacts.Describe(path)
	if err != nil {
		t.Fatal(err)
	}
	stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) {
		info.Rows = m.Files[name].Rows
		m.Files[name] = info
	})
}

// totalsOnly is an audit log whose run_completed events record the totals
// an ingest before issue 34's item 3 recorded, not the counts by kind.
func totalsOnly(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e map[string]any
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatal(err)
		}
		if c, ok := e["counts"].(map[string]any); ok && e["event"] == "run_completed" {
			for k := range c {
				if strings.HasPrefix(k, "by_") {
					delete(c, k)
				}
			}
		}
		enc, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(enc, '\n'))
	}
	return out.Bytes()
}
