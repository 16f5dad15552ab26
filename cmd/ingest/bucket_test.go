package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models/modelfake"
	"github.com/ocean-safety/ingest/publish/bucket"
)

// TestPublishToBucket: the nightly job against an S3-compatible store and
// a model server, with nothing kept on local disk between nights but the
// work folder: publish, re-run unchanged (reused from the bucket: no model
// call), edit and publish again, then verify, inspect and diff by URL.
func TestPublishToBucket(t *testing.T) {
	pub := "s3://knowledge/ocean" + fakeBucket(t)
	srv := modelfake.New(modelfake.Options{Dims: 1024})
	defer srv.Close()
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))

	night := func(name string) runSummary {
		t.Helper()
		t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work")) // a fresh machine each night
		code, stdout, stderr := runCLI(context.Background(), "", "index", "--corpus", c, "--publish", pub, "--json",
			"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if strings.Contains(stdout+stderr, "PLANTED") {
			t.Errorf("%s: got a credential printed", name)
		}
		var s runSummary
		if err := json.Unmarshal([]byte(stdout), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := night("first night")
	if first.Calls.HeaderCalls == 0 || first.Snapshot.Reused {
		t.Errorf("first night: got %+v, want model calls and a new snapshot", first.Calls)
	}
	second := night("an unchanged night")
	if second.Calls.HeaderCalls != 0 || second.Calls.EmbedCalls != 0 || second.Snapshot.Name != first.Snapshot.Name {
		t.Errorf("unchanged night: got calls %+v, snapshot %s; want none, and %s again", second.Calls, second.Snapshot.Name, first.Snapshot.Name)
	}
	appendTo(t, filepath.Join(c, "waves.md"), "\nA new paragraph about waves tonight.\n")
	third := night("an edit")
	if third.Calls.HeaderCalls == 0 || third.Calls.HeaderCalls >= first.Calls.HeaderCalls || third.Snapshot.Name == first.Snapshot.Name {
		t.Errorf("an edit: got %d header calls (first night %d), want a few", third.Calls.HeaderCalls, first.Calls.HeaderCalls)
	}
	latest := strings.Replace(pub, "ocean?", "ocean/latest?", 1)
	older := strings.Replace(pub, "ocean?", "ocean/"+first.Snapshot.Name+"?", 1)
	for _, args := range [][]string{{"verify", latest}, {"inspect", older}, {"diff", older, latest}, {"verify", "--json", latest}, {"inspect", "--json", older}} {
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		if code != exitOK || strings.Contains(stdout+stderr, "PLANTED") {
			t.Errorf("%s: got exit %d: %s%s", args[0], code, stdout, stderr)
		}
		// The snapshot is named as it was given, not by the folder it was
		// fetched to.
		if want := args[len(args)-1]; args[0] != "diff" && (!strings.Contains(stdout, strings.Split(want, "?")[0]) || strings.Contains(stdout, os.TempDir())) {
			t.Errorf("%v: got %.300q, want it to name %s and no temporary folder", args, stdout, strings.Split(want, "?")[0])
		}
		// Every file of the snapshot went to the bucket and came back,
		// verified: diagnostics.jsonl among them.
		if args[0] == "inspect" && args[1] == "--json" && !strings.Contains(stdout, `"`+artifacts.DiagnosticsFile+`"`) {
			t.Errorf("%v: got no %s among the snapshot's files", args, artifacts.DiagnosticsFile)
		}
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, filepath.Dir(path), map[string]string{filepath.Base(path): string(b) + text})
}

// fakeBucket starts an in-process S3 server with a bucket "knowledge" and
// credentials whose secret holds PLANTED (never to be printed), and returns
// the URL options that point an s3:// URL at it.
func fakeBucket(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	s3 := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(s3.Close)
	if err := backend.CreateBucket("knowledge"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key-id")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret-PLANTED")
	return "?endpoint=" + s3.URL + "&region=us-east-1&use_path_style=true"
}

// TestBucketHeals is the reproduction of a bucket whose latest was damaged,
// then deleted: each time the next run repairs it, exit 0, saying so, and
// verify, search and --prev read URL/latest again. Before, the run said
// "identical to a snapshot already there" over a flipped byte (verify went
// on failing), and a latest.json naming a deleted snapshot failed verify,
// --prev and every publish, even from a fresh work folder.
func TestBucketHeals(t *testing.T) {
	opts := fakeBucket(t)
	pub := "s3://knowledge/ocean" + opts
	latest := "s3://knowledge/ocean/latest" + opts
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	b, err := bucket.OpenObjects(context.Background(), pub)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	read := func(key string) ([]byte, error) {
		r, err := b.Get(context.Background(), key)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return io.ReadAll(r)
	}
	index := func(what string, args ...string) string {
		t.Helper()
		code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", c}, args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", what, code, stderr)
		}
		if strings.Contains(stderr, "PLANTED") {
			t.Errorf("%s: got a credential printed", what)
		}
		return stderr
	}
	verify := func() int {
		code, _, _ := runCLI(context.Background(), "", "verify", latest)
		return code
	}
	name := func() string {
		var l bucket.Latest
		lb, err := read(bucket.LatestFile)
		if err != nil || json.Unmarshal(lb, &l) != nil {
			t.Fatalf("latest.json: %v", err)
		}
		return l.Name
	}
	t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work"))
	index("first night", "--publish", pub)

	first := name()
	key := first + "/" + artifacts.ChunksFile
	data, err := read(key)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := b.Put(context.Background(), key, bytes.NewReader(data), int64(len(data)), bucket.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	if code := verify(); code != exitFailed {
		t.Errorf("verify of the damaged latest: got exit %d, want %d", code, exitFailed)
	}
	if stderr := index("a flipped byte", "--publish", pub); !strings.Contains(stderr, first+" failed verification") || strings.Contains(stderr, "identical") {
		t.Errorf("a flipped byte: got %q, want the damaged snapshot named and replaced", stderr)
	}
	if code := verify(); code != exitOK {
		t.Errorf("verify after the repair: got exit %d, want %d", code, exitOK)
	}

	second := name()
	for o, err := range b.List(context.Background(), second+"/", "") {
		if err != nil {
			break
		}
		b.Delete(context.Background(), o.Key)
	}
	if code := verify(); code != exitFailed {
		t.Errorf("verify of a latest naming nothing: got exit %d, want %d", code, exitFailed)
	}
	if stderr := index("--prev of a broken latest", "--out", filepath.Join(t.TempDir(), "out"), "--prev", latest); !strings.Contains(stderr, "nothing to reuse") {
		t.Errorf("--prev of a broken latest: got %q, want it reported", stderr)
	}
	t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "fresh")) // another machine
	if stderr := index("latest names a deleted snapshot", "--publish", pub); !strings.Contains(stderr, "latest-broken") {
		t.Errorf("a deleted latest: got %q, want it reported", stderr)
	}
	if code := verify(); code != exitOK {
		t.Errorf("verify after the repair: got exit %d, want %d", code, exitOK)
	}
	code, stdout, stderr := runCLI(context.Background(), "", "search", "--snapshot", latest, "--k", "1", "rip current")
	if code != exitOK || !strings.Contains(stdout, "1. ") || strings.Contains(stdout+stderr, "PLANTED") {
		t.Errorf("search --snapshot URL/latest: got exit %d: %s%s", code, stdout, stderr)
	}

	// Latest's manifest deleted: its files were removed as "left by an
	// interrupted run", nothing kept in .broken/.
	third := name()
	if err := b.Delete(context.Background(), third+"/"+artifacts.ManifestFile); err != nil {
		t.Fatal(err)
	}
	if stderr := index("latest's manifest deleted", "--publish", pub); !strings.Contains(stderr, third+" failed verification (manifest.json: missing)") ||
		!strings.Contains(stderr, "moved aside to") || strings.Contains(stderr, "left by an interrupted run") {
		t.Errorf("a deleted manifest: got %q, want the snapshot moved aside, not removed as a leftover", stderr)
	}
	if code := verify(); code != exitOK {
		t.Errorf("verify after the repair: got exit %d, want %d", code, exitOK)
	}
	var kept []string
	for o, err := range b.List(context.Background(), ".broken/"+third+"-", "") {
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, o.Key)
	}
	if !slices.ContainsFunc(kept, func(k string) bool { return strings.HasSuffix(k, "/"+artifacts.ChunksFile) }) {
		t.Errorf("got %q under .broken/, want the snapshot's files kept", kept)
	}
}

// TestKilledBucketRun is the reproduction of a bucket publish killed with
// SIGKILL while it holds the prefix's lease: the next run on the same host
// takes the lease over at once (its holder's process is gone) and
// publishes, exit 0. Before, every run on that host exited 2 for 24 hours,
// naming the dead pid, whatever --wait said.
func TestKilledBucketRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a child process")
	}
	pub := "s3://knowledge/ocean" + fakeBucket(t)
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	t.Setenv("INGEST_WORK_DIR", filepath.Join(t.TempDir(), "work"))
	var mu sync.Mutex // child, between the test and the server's handlers
	var child *exec.Cmd
	killed := make(chan struct{})
	srv := modelfake.New(modelfake.Options{Dims: 1024, Latency: 50 * time.Millisecond, OnCall: func(path string, n int) {
		mu.Lock()
		defer mu.Unlock()
		if path == modelfake.OllamaChat && n == 3 { // well into the run: the lease is held
			child.Process.Kill()
			close(killed)
		}
	}})
	defer srv.Close()
	models := []string{"--llm", "ollama:qwen2.5:7b", "--embedder", "ollama:bge-m3", "--ollama-host", srv.URL}
	mu.Lock()
	child = exec.Command(os.Args[0], append([]string{"index", "--corpus", c, "--publish", pub, "--quiet"}, models...)...)
	child.Env = append(os.Environ(), childEnv+"=1")
	err := child.Start()
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	child.Wait()
	select {
	case <-killed:
	default:
		t.Fatal("the child ended before it was killed")
	}
	code, _, stderr := runCLI(context.Background(), "", append([]string{"index", "--corpus", c, "--publish", pub, "--quiet"}, models...)...)
	if code != exitOK {
		t.Fatalf("the run after the kill: got exit %d, want %d: %s", code, exitOK, stderr)
	}
	if code, _, stderr := runCLI(context.Background(), "", "verify", strings.Replace(pub, "ocean?", "ocean/latest?", 1)); code != exitOK {
		t.Errorf("verify: exit %d: %s", code, stderr)
	}
}

// TestBucketEndpointCredentials: a bucket URL whose endpoint option carries
// user:pass@ never shows the password, raw or URL-encoded, in the
// published line, --json, JSON logs, verify's errors or any file written.
// (It was printed as u%3Ahunter2PASS.)
func TestBucketEndpointCredentials(t *testing.T) {
	const password = "hunter2PASS"
	opts := fakeBucket(t)
	pub := "s3://knowledge/ocean" + strings.Replace(opts, "http://", "http://u:"+password+"@", 1)
	work := filepath.Join(t.TempDir(), "work")
	t.Setenv("INGEST_WORK_DIR", work)
	c := copyCorpus(t, filepath.Join(t.TempDir(), "corpus"))
	texts := map[string]string{}
	for i, args := range [][]string{
		{"index", "--corpus", c, "--publish", pub},
		{"index", "--corpus", c, "--publish", pub, "--json", "--log-level", "info", "--log-format", "json"},
		{"verify", strings.Replace(pub, "ocean?", "ocean/latest?", 1)},
		{"verify", strings.Replace(pub, "ocean?", "ocean/no-such-snapshot?", 1)},
		{"inspect", "--json", strings.Replace(pub, "ocean?", "ocean/no-such-snapshot?", 1)},
	} {
		code, stdout, stderr := runCLI(context.Background(), "", args...)
		if i < 3 && code != exitOK {
			t.Errorf("%v: got exit %d: %s", args[:2], code, stderr)
		}
		texts[fmt.Sprintf("%d stdout", i)], texts[fmt.Sprintf("%d stderr", i)] = stdout, stderr
	}
	filepath.WalkDir(work, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			texts[p] = string(b)
		}
		return nil
	})
	if !strings.Contains(texts["0 stderr"], "latest → s3://knowledge/ocean/") {
		t.Errorf("got no published line: %s", texts["0 stderr"])
	}
	for where, text := range texts {
		for _, s := range []string{password, "hunter2", "u%3A"} {
			if strings.Contains(text, s) {
				t.Errorf("got %s in %s: %s", s, where, text)
			}
		}
	}
}
