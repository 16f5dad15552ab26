package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// TestS3EndToEnd runs the nightly job against a real S3-compatible server
// (SeaweedFS, started by .ci/seaweedfs.sh, which sets INGEST_TEST_S3): a
// first night, the incomplete upload of a killed run cleaned up, an
// unchanged night with no model call, an edit, pruning, and a sharded run
// merged into the bucket. Skipped without a server.
func TestS3EndToEnd(t *testing.T) {
	endpoint := os.Getenv("INGEST_TEST_S3")
	if endpoint == "" {
		t.Skip("INGEST_TEST_S3 is not set: run .ci/seaweedfs.sh test for the real-S3 tier")
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "ingest-test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ingest-test-PLANTED")
	run := time.Now().UTC().Format("20060102T150405.000000000")
	opts := "?endpoint=" + endpoint + "&region=us-east-1&use_path_style=true"
	pub := "s3://knowledge/e2e-" + run + "/ocean" + opts
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	calls := func() int { return srv.Calls(modelfake.OllamaChat) + srv.Calls(modelfake.OllamaEmbed) }
	models := []string{"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}

	night := func(name string, extra ...string) (runSummary, string, int) {
		t.Helper()
		t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work")) // a fresh machine each night
		before := calls()
		args := append(append([]string{"index", "--corpus", c, "--publish", pub, "--keep", "2", "--diff", "--json"}, models...), extra...)
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if strings.Contains(stdout+stderr, "PLANTED") {
			t.Errorf("%s: a credential was printed", name)
		}
		var s runSummary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		return s, stderr, calls() - before
	}

	first, _, n1 := night("first night")
	if n1 == 0 {
		t.Fatal("the first night made no model call")
	}

	// A killed run's upload: a snapshot's files without its manifest.
	store, err := bucket.Open(context.Background(), pub)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	stray := "20200101T000000Z-0123456789ab"
	tmp := filepath.Join(t.TempDir(), "chunks.parquet")
	os.WriteFile(tmp, []byte("half a file"), 0o644)
	if err := store.PutRaw(context.Background(), stray+"/chunks.parquet", tmp); err != nil {
		t.Fatal(err)
	}
	if l, err := store.ReadLatest(context.Background()); err != nil || l == nil || l.Name != first.Snapshot.Name {
		t.Fatalf("after an interrupted upload latest.json names %+v (%v), want %s", l, err, first.Snapshot.Name)
	}

	second, _, n2 := night("unchanged night")
	if n2 != 0 || !second.Snapshot.Reused || second.Snapshot.Name != first.Snapshot.Name {
		t.Errorf("unchanged night: %d model calls, snapshot %+v; want 0 calls and %s reused", n2, second.Snapshot, first.Snapshot.Name)
	}
	names, err := store.Snapshots(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(names, " "), stray) {
		t.Errorf("the interrupted upload %s is still there: %v", stray, names)
	}

	for i, edit := range []string{"Waves above 3 m close the beach.", "Winds above 30 knots close the beach."} {
		f := filepath.Join(c, fmt.Sprintf("edit-%d.md", i))
		if err := os.WriteFile(f, []byte("# Edit\nSource: https://example.org/edit\n\n"+edit+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		s, stderr, n := night(fmt.Sprintf("edit %d", i))
		if n == 0 || n >= n1 || s.Snapshot.Name == first.Snapshot.Name {
			t.Errorf("edit %d: %d model calls (first night %d), snapshot %s", i, n, n1, s.Snapshot.Name)
		}
		names, _ := store.Snapshots(context.Background())
		t.Logf("edit %d: %s; snapshots %v; stderr %s", i, s.Snapshot.Name, names, stderr)
		if !strings.Contains(stderr, "diff: ") {
			t.Errorf("edit %d: no diff report written: %s", i, stderr)
		}
		if code, md, _ := runCLI(context.Background(), "", "diff", strings.Replace(pub, "/ocean?", "/ocean/latest?", 1), strings.Replace(pub, "/ocean?", "/ocean/latest?", 1)); code != exitOK || md == "" {
			t.Errorf("diff latest latest: exit %d", code)
		}
		// No wait for the next second: nights in one second are named
		// alike but for their content, and pruning keeps latest and the
		// snapshot before it whatever their names' order.
		if l, err := store.ReadLatest(context.Background()); err != nil || l == nil || l.Name != s.Snapshot.Name {
			t.Errorf("edit %d: latest.json names %v (%v), want %s", i, l, err, s.Snapshot.Name)
		}
	}
	if names, err = store.Snapshots(context.Background()); err != nil || len(names) != 2 {
		t.Errorf("after three snapshots with --keep 2: got %v (%v), want 2", names, err)
	}
	if code, _, stderr := runCLI(context.Background(), "", "verify", strings.Replace(pub, "/ocean?", "/ocean/latest?", 1)); code != exitOK {
		t.Errorf("verify latest: exit %d: %s", code, stderr)
	}

	// A sharded run: parts and the merge in the bucket.
	parts := "s3://knowledge/e2e-" + run + "/parts" + opts
	merged := "s3://knowledge/e2e-" + run + "/merged" + opts
	for k := range 2 {
		t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work"))
		args := append([]string{"index", "--corpus", c, "--shard", fmt.Sprintf("%d/2", k), "--run-id", run, "--publish", parts, "--quiet"}, models...)
		if code, _, stderr := runCLI(context.Background(), "", args...); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
	}
	t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work"))
	if code, _, stderr := runCLI(context.Background(), "", "merge", "--parts", parts, "--shards", "2", "--run-id", run, "--publish", merged); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "diff", strings.Replace(pub, "/ocean?", "/ocean/latest?", 1),
		strings.Replace(merged, "/merged?", "/merged/latest?", 1), "--exit-code")
	if code != exitOK {
		t.Errorf("the merged snapshot differs from the single run's: exit %d: %s %s", code, stdout, stderr)
	}
}
