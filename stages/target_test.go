package stages

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
)

// countingTarget counts what a run asks of its target.
type countingTarget struct {
	publish.Target
	checks, acquires int
}

func (c *countingTarget) Check(corpus string) error {
	c.checks++
	return c.Target.Check(corpus)
}

func (c *countingTarget) Acquire(ctx context.Context, wait time.Duration) (*publish.Lock, error) {
	c.acquires++
	return c.Target.Acquire(ctx, wait)
}

// fakeRemote is a bucket prefix in a folder: Publish copies the build into
// it, Latest copies the last published snapshot out, and each Latest is
// counted.
type fakeRemote struct {
	dir     string
	mu      sync.Mutex
	latests int
	last    string
	journal []byte
}

var _ publish.Remote = (*fakeRemote)(nil)

func (f *fakeRemote) String() string { return "fake://" + f.dir }

func (f *fakeRemote) Acquire(context.Context, time.Duration) (func() error, error) {
	return func() error { return nil }, nil
}

func (f *fakeRemote) Clean(context.Context) ([]string, []publish.Quarantined, error) {
	return nil, nil, nil
}

func (f *fakeRemote) Latest(_ context.Context, dir string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latests++
	if f.last == "" {
		return "", nil
	}
	to := filepath.Join(dir, f.last)
	return to, copyFiles(filepath.Join(f.dir, f.last), to)
}

func (f *fakeRemote) Publish(_ context.Context, dir string, _ int) (*publish.Published, error) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	name, err := artifacts.SnapshotName(m)
	if err != nil {
		return nil, err
	}
	pub := &publish.Published{Name: name, Path: f.String() + "/" + name}
	if f.last != "" {
		pub.Previous = f.String() + "/" + f.last
	}
	if pub.Reused = name == f.last; !pub.Reused {
		if err := copyFiles(dir, filepath.Join(f.dir, name)); err != nil {
			return nil, err
		}
	}
	f.last = name
	return pub, nil
}

func (f *fakeRemote) ReadJournal(_ context.Context, w io.Writer) (int, error) {
	_, err := w.Write(f.journal)
	return 0, err
}

func (f *fakeRemote) AppendJournal(_ context.Context, _ int, piece []byte) error {
	f.journal = append(f.journal, piece...)
	return nil
}

func (f *fakeRemote) RemoveJournal(context.Context) error {
	f.journal = nil
	return nil
}

func copyFiles(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestTargetOnce: a run checks its target once and takes it once, and a
// bucket's latest is downloaded once a run, under the lock; the second
// night reuses what the first published, whatever the kind of target. A
// plan checks the target as a run does and takes nothing.
func TestTargetOnce(t *testing.T) {
	t.Parallel()
	remote := &fakeRemote{dir: t.TempDir()}
	tests := []struct {
		name   string
		target func(dir string) publish.Target
	}{
		{"out folder", func(dir string) publish.Target { return publish.OutTarget(filepath.Join(dir, "snap"), "") }},
		{"publish folder", func(dir string) publish.Target { return publish.PublishTarget(filepath.Join(dir, "pub"), 3, "") }},
		{"bucket", func(dir string) publish.Target {
			return publish.RemoteTarget(remote, filepath.Join(dir, "work"), 3, "")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := testConfig(fixtureCorpus, "", 1).Config
			for night := 1; night <= 2; night++ {
				target := &countingTarget{Target: tt.target(dir)}
				remote.latests = 0
				res, err := Run(context.Background(), cfg, target, Options{})
				if err != nil {
					t.Fatalf("night %d: %v", night, err)
				}
				if target.checks != 1 || target.acquires != 1 {
					t.Errorf("night %d: got %d checks and %d takes of the target, want 1 and 1", night, target.checks, target.acquires)
				}
				if tt.name == "bucket" && remote.latests != 1 {
					t.Errorf("night %d: got the bucket's latest downloaded %d times, want once", night, remote.latests)
				}
				if reused := res.Manifest.Previous != nil; reused != (night == 2) {
					t.Errorf("night %d: got reused from a previous snapshot %v, want %v", night, reused, night == 2)
				}
			}
			target := &countingTarget{Target: tt.target(dir)}
			if _, err := Plan(context.Background(), cfg, target, Options{}); err != nil {
				t.Fatal(err)
			}
			if target.checks != 1 || target.acquires != 0 {
				t.Errorf("plan: got %d checks and %d takes of the target, want 1 and 0", target.checks, target.acquires)
			}
		})
	}
}

// TestPreviousDims: the run itself refuses an embedder whose vectors are not
// as wide as the previous snapshot's (one index cannot mix widths), before
// it writes anything; the models it opens are told the previous snapshot's
// manifest (none on a first run), for the digests they keep.
func TestPreviousDims(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "snap")
	rc := testConfig(fixtureCorpus, out, 1)
	var seen []*artifacts.Manifest
	opener := func(dims int) ModelOpener {
		return func(_ context.Context, prev *artifacts.Manifest) (models.HeaderWriter, models.Embedder, error) {
			seen = append(seen, prev)
			return extractive.New(rc.Header.MaxChars), &resized{dims: dims}, nil
		}
	}
	first := mustRun(t, rc, Options{OpenModels: opener(1024)})
	_, err := runOut(context.Background(), rc, Options{OpenModels: opener(256)})
	var se *schema.SettingError
	if !errors.As(err, &se) || se.Key != "embedder" || !strings.Contains(err.Error(), "gives 256 dimensions, the previous snapshot has 1024") {
		t.Errorf("got %v, want a setting error of embedder naming both widths", err)
	}
	m, rerr := artifacts.ReadManifest(out)
	if rerr != nil || m.RunID != first.Manifest.RunID {
		t.Errorf("got the snapshot at --out replaced (run %s, %v), want the first run's (%s) untouched", m.RunID, rerr, first.Manifest.RunID)
	}
	if len(seen) != 2 || seen[0] != nil || seen[1] == nil || seen[1].RunID != first.Manifest.RunID || seen[1].Embedder.Dims != 1024 {
		t.Errorf("got the models opened with %v, want no previous manifest, then the first run's", seen)
	}
	rc.Embed.Dims = 256 // the built-in embedder is held to it too
	if _, err := runOut(context.Background(), rc, Options{}); !errors.As(err, &se) || se.Key != "embedder" {
		t.Errorf("built-in embedder of 256 dimensions: got %v, want a setting error of embedder", err)
	}
}

// resized is a model embedder (not offline) of any width.
type resized struct{ dims int }

func (e *resized) Name() string { return "test:resized" }
func (e *resized) Dims() int    { return e.dims }
func (e *resized) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = make([]float32, e.dims)
		out[i][i%e.dims] = 1
	}
	return out, nil
}

// TestRemoteTargetCorpus: a bucket target is checked against the corpus by
// its work folder on this machine, not by its URL read as a path (which
// lies "inside" a corpus given as "."): refused when the work folder is in
// the corpus, accepted from inside the corpus otherwise.
func TestRemoteTargetCorpus(t *testing.T) {
	corpusDir := t.TempDir()
	remote := &fakeRemote{dir: t.TempDir()}
	t.Chdir(corpusDir)
	if err := publish.RemoteTarget(remote, filepath.Join(t.TempDir(), "work"), 3, "").Check("."); err != nil {
		t.Errorf("a work folder outside the corpus: got %v, want it accepted", err)
	}
	err := publish.RemoteTarget(remote, filepath.Join(corpusDir, "work"), 3, "").Check(".")
	var no *publish.NotOwnedError
	if !errors.As(err, &no) || no.Key != "publish" || no.Path != filepath.Join(corpusDir, "work") || !strings.Contains(no.Why, "inside the corpus") {
		t.Errorf("a work folder inside the corpus: got %v, want it refused, naming the work folder", err)
	}
}
