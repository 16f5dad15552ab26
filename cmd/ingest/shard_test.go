package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish"
)

// TestShardedRun runs a corpus as a Kubernetes Indexed Job would: four
// ingest processes at once, each told its shard by JOB_COMPLETION_INDEX,
// writing parts under one folder, then a merge that publishes. The merged
// snapshot is the single run's, byte for byte; the next night every shard
// reuses the published snapshot (no model call for an unchanged corpus, and
// calls only for what changed).
func TestShardedRun(t *testing.T) {
	t.Parallel()
	srv := modelfake.New(modelfake.Options{})
	defer srv.Close()
	root := t.TempDir()
	c := filepath.Join(root, "corpus")
	copyTree(t, "../../corpus/ocean", c)
	models := []string{"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}
	calls := func() int { return srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed) }
	const n = 4

	night := func(name, prev string) (merged string, modelCalls int) {
		t.Helper()
		parts := filepath.Join(root, name, "parts")
		before := calls()
		var wg sync.WaitGroup
		errs := make([]string, n)
		for k := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				args := append([]string{"index", "--corpus", c, "--shards", fmt.Sprint(n), "--publish", parts, "--quiet"}, models...)
				if prev != "" {
					args = append(args, "--prev", prev)
				}
				cmd := exec.Command(os.Args[0], args...)
				cmd.Env = append(os.Environ(), childEnv+"=1", fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k), "INGEST_RUN_ID="+name)
				if out, err := cmd.CombinedOutput(); err != nil {
					errs[k] = fmt.Sprintf("shard %d: %v\n%s", k, err, out)
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Fatal(e)
			}
		}
		modelCalls = calls() - before
		published := filepath.Join(root, "knowledge")
		if code, _, stderr := runCLI(context.Background(), "", "merge", "--parts", parts, "--shards", fmt.Sprint(n), "--run-id", name, "--publish", published); code != exitOK {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		return filepath.Join(published, publish.LatestLink), modelCalls
	}
	whole := func(name, prev string) string {
		t.Helper()
		out := filepath.Join(root, name, "whole")
		args := append([]string{"index", "--corpus", c, "--out", out, "--quiet"}, models...)
		if prev != "" {
			args = append(args, "--prev", prev)
		}
		if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
			t.Fatalf("whole run: exit %d: %s", code, stderr)
		}
		return out
	}
	same := func(night, merged, whole string) {
		t.Helper()
		for _, name := range []string{artifacts.ChunksFile, artifacts.ThresholdsFile} {
			a, b := readBytes(t, filepath.Join(merged, name)), readBytes(t, filepath.Join(whole, name))
			if !bytes.Equal(a, b) {
				t.Errorf("%s: the merged %s (%d bytes) differs from the single run's (%d bytes)", night, name, len(a), len(b))
			}
		}
		mm, err1 := artifacts.ReadManifest(merged)
		wm, err2 := artifacts.ReadManifest(whole)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if fmt.Sprint(mm.Counts) != fmt.Sprint(wm.Counts) || mm.CorpusFingerprint != wm.CorpusFingerprint || mm.InputFingerprint != wm.InputFingerprint {
			t.Errorf("%s: merged counts %v, fingerprints %s %s; single run %v, %s %s", night, mm.Counts, mm.CorpusFingerprint, mm.InputFingerprint,
				wm.Counts, wm.CorpusFingerprint, wm.InputFingerprint)
		}
		var mr, wr artifacts.Report
		if err := json.Unmarshal(readBytes(t, filepath.Join(merged, artifacts.ReportFile)), &mr); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(readBytes(t, filepath.Join(whole, artifacts.ReportFile)), &wr); err != nil {
			t.Fatal(err)
		}
		if mr.ChunkSizes == nil || fmt.Sprintf("%+v", *mr.ChunkSizes) != fmt.Sprintf("%+v", *wr.ChunkSizes) {
			t.Errorf("%s: merged chunk sizes %+v, single run %+v", night, mr.ChunkSizes, wr.ChunkSizes)
		}
	}

	merged, first := night("night1", "")
	if first == 0 {
		t.Fatal("the first night made no model call")
	}
	same("night 1", merged, whole("night1", ""))

	_, second := night("night2", merged)
	if second != 0 {
		t.Errorf("night 2, corpus unchanged: got %d model calls, want 0 (every shard reuses the published snapshot)", second)
	}

	doc := filepath.Join(c, "rip-currents.md")
	b := readBytes(t, doc)
	if err := os.WriteFile(doc, append(b, []byte("\n## Added\n\nSwim parallel to the beach until you are out of the current.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	single := whole("night3-single", merged) // reusing the same snapshot as the shards
	merged3, third := night("night3", filepath.Join(root, "knowledge", publish.LatestLink))
	if third == 0 || third >= first/2 {
		t.Errorf("night 3, one document edited: got %d model calls, want some, far fewer than the first night's %d", third, first)
	}
	same("night 3", merged3, single)
}

// stamps is every file and folder under dir with its size and modification
// time: a file rewritten with the same bytes (a lock's holder file within
// the same second) still shows, as does a folder made or removed.
func stamps(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = fmt.Sprintf("%v %d %d", info.Mode(), info.Size(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestShardFlags: what the shard and merge flags refuse, with exit 2 and a
// message that says what to do.
func TestShardFlags(t *testing.T) {
	root := t.TempDir()
	snap := mustIndex(t, fixtureCorpus, filepath.Join(root, "snap"))
	parts := filepath.Join(root, "parts")
	for _, sh := range []string{"0/2", "1/2"} {
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", fixtureCorpus, "--shard", sh, "--out", parts, "--quiet"); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", sh, code, stderr)
		}
	}
	tests := []struct {
		name string
		env  string // JOB_COMPLETION_INDEX, "" unset
		args []string
		want string
	}{
		{"a shard out of range", "", []string{"index", "--corpus", fixtureCorpus, "--out", parts, "--shard", "2/2"}, "numbered 0 to 1"},
		{"not K/N", "", []string{"index", "--corpus", fixtureCorpus, "--out", parts, "--shard", "two"}, "want K/N"},
		{"--shards without an index", "", []string{"index", "--corpus", fixtureCorpus, "--out", parts, "--shards", "2"}, "JOB_COMPLETION_INDEX"},
		{"an index past --shards", "5", []string{"index", "--corpus", fixtureCorpus, "--out", parts, "--shards", "2"}, "numbered 0 to 1"},
		{"--shard and --shards disagree", "", []string{"index", "--corpus", fixtureCorpus, "--out", parts, "--shard", "0/2", "--shards", "3"}, "disagree"},
		{"parts inside a snapshot", "", []string{"index", "--corpus", fixtureCorpus, "--out", snap, "--shard", "0/2"}, "holds a snapshot"},
		{"parts among the user's files", "", []string{"index", "--corpus", fixtureCorpus, "--out", root, "--shard", "0/2"}, "not only parts"},
		{"merge: a part missing", "", []string{"merge", "--parts", parts, "--shards", "3", "--out", filepath.Join(root, "m")}, "did that shard's run finish"},
		{"merge: no parts", "", []string{"merge", "--out", filepath.Join(root, "m")}, "merge needs the parts"},
		{"merge: --parts without --shards", "", []string{"merge", "--parts", parts, "--out", filepath.Join(root, "m")}, "go together"},
		{"merge: a part given alone", "", []string{"merge", filepath.Join(parts, "shard-0-of-2"), "--out", filepath.Join(root, "m")}, "missing shard [1]"},
		{"merge: a whole snapshot", "", []string{"merge", snap, "--out", filepath.Join(root, "m")}, "not a part"},
		{"merge over a part", "", []string{"merge", "--parts", parts, "--shards", "2", "--out", filepath.Join(parts, "shard-0-of-2")}, "holds a part"},
		{"a whole run over a part", "", []string{"index", "--corpus", fixtureCorpus, "--out", filepath.Join(parts, "shard-1-of-2")}, "holds a part"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != "" {
				t.Setenv("JOB_COMPLETION_INDEX", tt.env)
			}
			before := stamps(t, root)
			code, _, stderr := runCLI(context.Background(), "", tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("got exit %d, stderr %q; want exit %d saying %q", code, stderr, exitUsage, tt.want)
			}
			if d := treeDiff(before, stamps(t, root)); d != "" {
				t.Errorf("a refused command wrote in %s: %s", root, d)
			}
		})
	}
}

// TestShardedBucketRun: shards publish their parts to a bucket, reuse the
// last merged snapshot from it (nothing there on the first night is no
// error), and the merge publishes from the bucket to the bucket.
func TestShardedBucketRun(t *testing.T) {
	opts := fakeBucket(t)
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	calls := func() int { return srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed) }
	const n = 3
	night := func(run string) (modelCalls int, summary runSummary) {
		t.Helper()
		before := calls()
		for k := range n {
			t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work")) // each shard on its own machine
			code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--shard", fmt.Sprintf("%d/%d", k, n), "--run-id", run,
				"--publish", "s3://knowledge/parts/"+run+opts, "--prev", "s3://knowledge/snapshots/latest"+opts, "--quiet",
				"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL)
			if code != exitOK || strings.Contains(stdout+stderr, "PLANTED") {
				t.Fatalf("%s shard %d: exit %d: %s", run, k, code, stderr)
			}
		}
		modelCalls = calls() - before
		t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work"))
		code, stdout, stderr := runCLI(context.Background(), "", "merge", "--parts", "s3://knowledge/parts/"+run+opts, "--shards", fmt.Sprint(n),
			"--run-id", run, "--publish", "s3://knowledge/snapshots"+opts, "--json")
		if code != exitOK || strings.Contains(stdout+stderr, "PLANTED") {
			t.Fatalf("%s merge: exit %d: %s", run, code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), &summary); err != nil {
			t.Fatal(err)
		}
		return modelCalls, summary
	}
	first, s1 := night("night-1")
	second, s2 := night("night-2")
	if first == 0 || second != 0 {
		t.Errorf("got %d model calls on the first night and %d on the unchanged second, want some and 0", first, second)
	}
	if !s2.Snapshot.Reused || s1.Counts.Chunks == 0 || s2.Counts.Chunks != s1.Counts.Chunks {
		t.Errorf("night 2: got %+v, want the first night's snapshot republished as is (%+v)", s2.Snapshot, s1.Snapshot)
	}
	code, _, stderr := runCLI(context.Background(), "", "verify", "s3://knowledge/snapshots/latest"+opts)
	if code != exitOK {
		t.Errorf("verify the merged snapshot in the bucket: exit %d: %s", code, stderr)
	}
}
