package stages

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
)

// wholeExtra are documents beside the ocean corpus's that a run takes
// whole or not for reasons of their own: one includes a file, one is
// rejected, one is a draft, one includes a file that is not there.
var wholeExtra = map[string]string{
	"inc/snippet.txt": "Swim between the red and yellow flags.\n",
	"included.md":     "# Included\nSource: https://example.org/included\n\nWhat the lifeguards say:\n\n--8<-- \"inc/snippet.txt\"\n",
	"unresolved.md":   "# Unresolved\nSource: https://example.org/unresolved\n\nBefore.\n\n--8<-- \"inc/later.txt\"\n\nAfter.\n",
	"rejected.md":     "---\ntitle: [unclosed\n---\nBody.\n",
	"draft.md":        "---\ntitle: Draft\nsource: https://example.org/draft\ndraft: true\n---\nNot yet.\n",
}

// TestWholeDocuments: a run after an edit takes the unchanged documents
// whole from the previous snapshot and makes the others again (and --plan
// counts what a plan from scratch counts), and the snapshot it publishes is
// the one a run from scratch makes: the same
// bytes of chunks.parquet, thresholds.md, diagnostics.jsonl and
// documents.jsonl, the same report and manifest but for run ids, times and
// the calls reused.
func TestWholeDocuments(t *testing.T) {
	t.Parallel()
	const docs = 33 // the ocean corpus's 29, included, unresolved, rejected and draft
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir, prev string)
		cfg  func(*runConfig)
		made int // documents made again (parsed): the rest are taken whole
	}{
		{name: "an edited document", made: 2, edit: func(t *testing.T, dir, _ string) {
			appendTo(t, filepath.Join(dir, "rip-currents.md"), "\nA sentence added tonight.\n")
		}},
		{name: "an added document", made: 2, edit: func(t *testing.T, dir, _ string) {
			write(t, filepath.Join(dir, "new.md"), "# New\nSource: https://example.org/new\n\nA new page about tides.\n")
		}},
		{name: "a deleted document", made: 1, edit: func(t *testing.T, dir, _ string) {
			remove(t, filepath.Join(dir, "cold-water.md"))
		}},
		{name: "an edited included file", made: 2, edit: func(t *testing.T, dir, _ string) {
			write(t, filepath.Join(dir, "inc/snippet.txt"), "Swim only between the flags.\n")
		}},
		{name: "a missing include now there", made: 1, edit: func(t *testing.T, dir, _ string) {
			write(t, filepath.Join(dir, "inc/later.txt"), "Now it is here.\n")
		}},
		{name: "an edited rejected document", made: 2, edit: func(t *testing.T, dir, _ string) {
			write(t, filepath.Join(dir, "rejected.md"), "---\ntitle: [still unclosed\n---\nBody.\n")
		}},
		{name: "a config change", made: docs, cfg: func(rc *runConfig) { rc.Chunk.Max = 300 }, edit: func(t *testing.T, dir, _ string) {
			appendTo(t, filepath.Join(dir, "rip-currents.md"), "\nA sentence added tonight.\n")
		}},
		{name: "an older snapshot without a documents list", made: docs, edit: func(t *testing.T, dir, prev string) {
			appendTo(t, filepath.Join(dir, "rip-currents.md"), "\nA sentence added tonight.\n")
			dropDocuments(t, prev)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpus(t, "../corpus/ocean", wholeExtra)
			tmp := t.TempDir()
			prev, scratch := filepath.Join(tmp, "prev"), filepath.Join(tmp, "scratch")
			mustRun(t, testConfig(dir, prev, 2), Options{ToolVersion: "test"})
			tc.edit(t, dir, prev)
			again, fresh := testConfig(dir, prev, 2), testConfig(dir, scratch, 1)
			if tc.cfg != nil {
				tc.cfg(&again)
				tc.cfg(&fresh)
			}
			plan := func(rc runConfig) string {
				p, err := Plan(context.Background(), rc.Config, publish.OutTarget(rc.Out, ""), Options{ToolVersion: "test"})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("%d documents, %d rejected, %d chunks, %d bytes", p.Documents, p.Rejected, p.Chunks, p.Bytes)
			}
			if got, want := plan(again), plan(fresh); got != want {
				t.Errorf("--plan: got %s, want %s, as from scratch", got, want)
			}
			res := mustRun(t, again, Options{ToolVersion: "test"})
			mustRun(t, fresh, Options{ToolVersion: "test"})
			if got := parsed(res.Report); got != tc.made {
				t.Errorf("got %d documents made again, want %d (the rest taken whole)", got, tc.made)
			}
			sameSnapshot(t, prev, scratch)
		})
	}
}

// parsed is how many documents the run parsed: those it did not take whole.
func parsed(rep artifacts.Report) int {
	for _, s := range rep.Stages {
		if s.Name == stageParse {
			return s.Items
		}
	}
	return 0
}

// sameSnapshot fails unless the snapshots at a and b are the same but for
// what tells runs apart: run ids, times, the previous snapshot and the
// calls a run reused.
func sameSnapshot(t *testing.T, a, b string) {
	t.Helper()
	for _, name := range []string{artifacts.ChunksFile, artifacts.ThresholdsFile, artifacts.DiagnosticsFile, artifacts.DocumentsFile} {
		if !bytes.Equal(readFile(t, filepath.Join(a, name)), readFile(t, filepath.Join(b, name))) {
			t.Errorf("%s: got different bytes from a run that took documents whole and one from scratch", name)
		}
	}
	for name, drop := range map[string][]string{
		artifacts.ReportFile:   {"run_id", "seconds", "stages"},
		artifacts.ManifestFile: {"run_id", "created_at", "previous", "calls", "files"},
	} {
		if got, want := canonicalJSON(t, filepath.Join(a, name), drop), canonicalJSON(t, filepath.Join(b, name), drop); got != want {
			t.Errorf("%s: got\n%s\nwant (from scratch)\n%s", name, got, want)
		}
	}
}

// canonicalJSON is the JSON object at path without the keys drop.
func canonicalJSON(t *testing.T, path string, drop []string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readFile(t, path), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range drop {
		delete(m, k)
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dropDocuments makes the snapshot at dir one an older ingest wrote: no
// documents list, and a manifest that lists none.
func dropDocuments(t *testing.T, dir string) {
	t.Helper()
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	delete(m.Files, artifacts.DocumentsFile)
	remove(t, filepath.Join(dir, artifacts.DocumentsFile))
	if err := artifacts.WriteJSON(filepath.Join(dir, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := writeFile(path, []byte(text)); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	write(t, path, string(readFile(t, path))+text)
}

func remove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}
