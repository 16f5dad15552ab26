package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// TestShardRetryResumes runs the Kubernetes example's Jobs as written
// (deploy/kubernetes/shards.yaml, merge.yaml and config.yaml's
// ingest.yaml), with a bucket and model servers of the test's own: shard
// 0's first pod fails when its model server dies, and its retry, a new
// pod with an empty work folder, asks the servers for none of the answers
// the first pod had been given; then shard 1 and the merge run, the merge
// publishes a snapshot that verifies and removes the parts.
func TestShardRetryResumes(t *testing.T) {
	opts := fakeBucket(t)
	const run, shards = "20261201t020000", 2
	vars := strings.NewReplacer("${RUN_ID}", run, "${SHARDS}", fmt.Sprint(shards), "${IMAGE}", "ingest@sha256:"+strings.Repeat("0", 64))
	manifest := func(name string) []string {
		var job struct {
			Spec struct {
				Template struct {
					Spec struct {
						Containers []struct {
							Args []string `yaml:"args"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		b, err := os.ReadFile(filepath.Join("../../deploy/kubernetes", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(vars.Replace(string(b))), &job); err != nil {
			t.Fatal(err)
		}
		return job.Spec.Template.Spec.Containers[0].Args
	}
	corpusDir := filepath.Join(t.TempDir(), "corpus")
	copyTree(t, "../../corpus/ocean", corpusDir)
	cfgFile := filepath.Join(t.TempDir(), "ingest.yaml")
	{
		b, _ := os.ReadFile("../../deploy/kubernetes/config.yaml")
		var cm struct {
			Data map[string]string `yaml:"data"`
		}
		yaml.Unmarshal([]byte(strings.Split(string(b), "\n---\n")[0]), &cm)
		os.WriteFile(cfgFile, []byte(cm.Data["ingest.yaml"]), 0o644)
	}
	// pod runs a Job's container: its args with this machine's corpus,
	// config, bucket and model server (--ollama-host over the config's
	// hosts), a new work folder, its index.
	pod := func(args []string, index int, srv *modelfake.Server) (int, string) {
		t.Helper()
		var a []string
		for _, arg := range args {
			name, v, _ := strings.Cut(arg, "=")
			switch {
			case name == "--corpus":
				arg = name + "=" + corpusDir
			case name == "--config":
				arg = name + "=" + cfgFile
			case name == "--log-format":
				continue // a person reads this test's failures
			case strings.HasPrefix(v, "s3://"):
				arg += opts
			}
			a = append(a, arg)
		}
		if srv != nil && a[0] == "index" { // the config's model servers are the test's
			a = append(a, "--ollama-host="+srv.URL)
		}
		t.Setenv("INGEST_WORK_DIR", t.TempDir()) // an emptyDir: new with every pod
		t.Setenv("JOB_COMPLETION_INDEX", fmt.Sprint(index))
		code, _, stderr := runCLI(context.Background(), "", append(a, "--quiet")...)
		if strings.Contains(stderr, "PLANTED") {
			t.Errorf("a secret printed:\n%s", stderr)
		}
		return code, stderr
	}

	dying := modelfake.New(modelfake.Options{Dims: 1024})
	defer dying.Close()
	dying.SetFault(modelfake.Fault{Kind: modelfake.Die, After: 12})
	if code, stderr := pod(manifest("shards.yaml"), 0, dying); code != exitFailed {
		t.Fatalf("shard 0, first pod, its server dying: exit %d, want %d:\n%s", code, exitFailed, stderr)
	}
	back := modelfake.New(modelfake.Options{Dims: 1024})
	defer back.Close()
	if code, stderr := pod(manifest("shards.yaml"), 0, back); code != exitOK {
		t.Fatalf("shard 0, retried pod: exit %d:\n%s", code, stderr)
	}
	paid, again := 0, 0
	for _, path := range []string{modelfake.OllamaChat, modelfake.OllamaEmbed} {
		answered := map[string]bool{}
		for _, a := range dying.Answers(path) {
			for _, it := range requestItems(path, a.Body) {
				answered[it] = true
			}
		}
		paid += len(answered)
		for _, body := range back.Requests(path) {
			for _, it := range requestItems(path, body) {
				if answered[it] {
					again++
					t.Errorf("%s: the retry asked again for %.100q, answered before the first pod died", path, it)
				}
			}
		}
	}
	if paid == 0 {
		t.Fatalf("the first pod was answered nothing: the test checks nothing")
	}
	t.Logf("answered before the first pod died: %d items; asked again by the retry: %d", paid, again)
	if code, stderr := pod(manifest("shards.yaml"), 1, back); code != exitOK {
		t.Fatalf("shard 1: exit %d:\n%s", code, stderr)
	}
	if code, stderr := pod(manifest("merge.yaml"), 0, back); code != exitOK {
		t.Fatalf("merge: exit %d:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(context.Background(), "", "verify", "s3://knowledge/snapshots/latest"+opts); code != exitOK {
		t.Errorf("verify the merged snapshot: exit %d:\n%s", code, stderr)
	}
	b, err := bucket.OpenObjects(context.Background(), "s3://knowledge"+opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for o, err := range b.List(context.Background(), "parts/", "") {
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("the merge left %s: want the parts removed", o.Key)
	}
}

// requestItems are what a model call asks for: a chat request whole, each
// text of an embed request.
func requestItems(path string, body []byte) []string {
	if path == modelfake.OllamaChat {
		return []string{string(body)}
	}
	var req struct {
		Input []string `json:"input"`
	}
	json.Unmarshal(body, &req)
	return req.Input
}

// TestMergeRemovesParts: merge --remove-parts removes a folder's parts
// once the merged snapshot is published, and the folder they were in; it
// takes only parts named by --parts and --shards, and a failed merge
// removes nothing.
func TestMergeRemovesParts(t *testing.T) {
	t.Parallel()
	corpusDir := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	parts := filepath.Join(t.TempDir(), "parts", "r1")
	for k := range 2 {
		if code, _, stderr := runCLI(context.Background(), "", "index", "--corpus", corpusDir, "--shard", fmt.Sprintf("%d/2", k), "--run-id", "r1", "--publish", parts, "--quiet"); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
		}
	}
	pub := filepath.Join(t.TempDir(), "pub")
	if code, _, stderr := runCLI(context.Background(), "", "merge", filepath.Join(parts, "shard-0-of-2"), filepath.Join(parts, "shard-1-of-2"), "--publish", pub, "--remove-parts"); code != exitUsage || !strings.Contains(stderr, "--remove-parts") {
		t.Errorf("--remove-parts with parts as arguments: exit %d, %q; want 2", code, stderr)
	}
	if code, _, stderr := runCLI(context.Background(), "", "merge", "--parts", parts, "--shards", "2", "--run-id", "other", "--publish", pub, "--remove-parts"); code != exitUsage {
		t.Errorf("a merge that fails: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(parts); err != nil {
		t.Fatalf("a failed merge removed the parts: %v", err)
	}
	code, _, stderr := runCLI(context.Background(), "", "merge", "--parts", parts, "--shards", "2", "--run-id", "r1", "--publish", pub, "--remove-parts")
	if code != exitOK || !strings.Contains(stderr, "removed the parts at "+parts) {
		t.Fatalf("merge --remove-parts: exit %d:\n%s", code, stderr)
	}
	if _, err := os.Stat(parts); !os.IsNotExist(err) {
		t.Errorf("the parts are still there after the merge (%v)", err)
	}
	if code, _, stderr := runCLI(context.Background(), "", "verify", filepath.Join(pub, "latest")); code != exitOK {
		t.Errorf("verify the merge: exit %d: %s", code, stderr)
	}
}
