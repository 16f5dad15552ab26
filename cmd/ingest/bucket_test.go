package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ocean-safety/ingest/models/modelfake"
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
	for _, args := range [][]string{{"verify", latest}, {"inspect", older}, {"diff", older, latest}} {
		if code, stdout, stderr := runCLI(context.Background(), "", args...); code != exitOK || strings.Contains(stdout+stderr, "PLANTED") {
			t.Errorf("%s: got exit %d: %s%s", args[0], code, stdout, stderr)
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
// the URL options that point gocloud at it.
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
