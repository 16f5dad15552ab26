package bucket_test

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/publish/bucket"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

// fakeS3 starts an in-process S3 server with a bucket and returns the
// publish URL of a prefix in it.
func fakeS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	if err := backend.CreateBucket("knowledge"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key-id")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	return "s3://knowledge/ocean?endpoint=" + srv.URL + "&region=us-east-1&use_path_style=true"
}

func open(t *testing.T, url string) *bucket.Store {
	t.Helper()
	s, err := bucket.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPublish: publish, publish the same content again (reused), publish
// something new, prune, and read back what latest names.
func TestPublish(t *testing.T) {
	ctx := context.Background()
	s := open(t, fakeS3(t))
	base := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{})
	first, err := s.Publish(ctx, base, 2)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused || !strings.Contains(first.Path, "/ocean/"+first.Name+"?") {
		t.Errorf("got %+v, want a new snapshot", first)
	}
	again, err := s.Publish(ctx, stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{}), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Reused || again.Name != first.Name {
		t.Errorf("got %+v, want the same content reused under %s", again, first.Name)
	}
	var names []string
	for i := range 3 {
		edits := map[string]string{"extra.md": "# Extra\nSource: https://x.example\n\nVariant " + string(rune('a'+i)) + ".\n"}
		p, err := s.Publish(ctx, stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, edits), stages.Options{}), 2)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, p.Name)
	}
	l, err := s.ReadLatest(ctx)
	if err != nil || l == nil || l.Name != names[2] {
		t.Fatalf("got latest %+v, %v; want %s", l, err, names[2])
	}
	left, err := s.Snapshots(ctx)
	if err != nil || len(left) != 2 || !slices.Contains(left, names[2]) {
		t.Errorf("got %v left (%v), want 2 with latest %s among them (keep 2)", left, err, names[2])
	}
	dir, err := s.Latest(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Verify(dir)
	if err != nil || !rep.OK() {
		t.Errorf("the downloaded latest does not verify: %v %v", err, rep.Problems())
	}
}

// TestInterruptedUpload: objects of a snapshot without its manifest (the
// upload died) leave latest.json as it was, and Clean removes them.
func TestInterruptedUpload(t *testing.T) {
	ctx := context.Background()
	url := fakeS3(t)
	s := open(t, url)
	good, err := s.Publish(ctx, stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, nil), stages.Options{}), 5)
	if err != nil {
		t.Fatal(err)
	}
	// Half an upload: the data files of a new snapshot, no manifest.
	half := stagestest.Build(t, stagestest.WriteCorpus(t, stagestest.Base, map[string]string{"x.md": "# X\nSource: https://x\n\nNew.\n"}), stages.Options{})
	os.Remove(filepath.Join(half, artifacts.ManifestFile))
	const halfName = "20991231T000000Z-0123456789ab"
	if err := s.PutRaw(ctx, halfName+"/"+artifacts.ChunksFile, filepath.Join(half, artifacts.ChunksFile)); err != nil {
		t.Fatal(err)
	}
	if l, _ := s.ReadLatest(ctx); l == nil || l.Name != good.Name {
		t.Errorf("got latest %+v, want %s untouched", l, good.Name)
	}
	removed, aside, err := s.Clean(ctx)
	if err != nil || len(removed) != 1 || removed[0] != halfName || len(aside) != 0 {
		t.Errorf("got removed %v, %v; want [%s]", removed, err, halfName)
	}
}

// TestLease: one writer per prefix; a second waits or is refused with the
// holder named; a given-back lease can be taken.
func TestLease(t *testing.T) {
	ctx := context.Background()
	url := fakeS3(t)
	a, b := open(t, url), open(t, url)
	release, err := a.Acquire(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Acquire(ctx, 0); err == nil || !strings.Contains(err.Error(), "another ingest run is writing it (pid") {
		t.Errorf("got %v, want the lease refused, naming its holder", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if release, err := b.Acquire(ctx, 0); err != nil {
		t.Errorf("got %v after the release, want the lease", err)
	} else {
		release()
	}
}
