package publish_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/stages/stagestest"
)

var (
	baseCorpus      = stagestest.Base
	testSourceLabel = stagestest.SourceLabel
	writeCorpus     = stagestest.WriteCorpus
	buildSnapshot   = stagestest.Build
	copySnapshot    = stagestest.Copy
)

// publishPipeline runs the pipeline over corpusDir into the publish folder
// dir, and returns what it published and the previous snapshot its target
// chose to reuse from.
func publishPipeline(dir string, keep int, corpusDir string) (*publish.Published, string, error) {
	target := publish.PublishTarget(dir, keep, "")
	prev := target.Previous()
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers, cfg.SourceLabel = corpusDir, 1, testSourceLabel
	res, err := stages.Run(context.Background(), cfg, target, stages.Options{})
	if res == nil {
		return nil, prev, err
	}
	return &res.Published, prev, err
}

// publishBuild stages a snapshot written by build into the publish folder
// dir and commits it.
func publishBuild(dir string, keep int, build func(staging string) error) (*publish.Published, error) {
	st, err := publish.PublishTarget(dir, keep, "").Stage()
	if err != nil {
		return nil, err
	}
	if err := build(st.Dir); err != nil {
		st.Abort()
		return nil, err
	}
	return st.Commit(context.Background())
}

// snapshotInto builds corpusDir's snapshot elsewhere and copies its files to out.
func snapshotInto(t *testing.T, corpusDir, out string) error {
	src := filepath.Join(t.TempDir(), "snap")
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers, cfg.SourceLabel = corpusDir, 1, testSourceLabel
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(src, ""), stages.Options{}); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// corpusVariant is the base corpus with one more document, different for each n.
func corpusVariant(t *testing.T, n int) string {
	if n == 0 {
		return writeCorpus(t, baseCorpus, nil)
	}
	return writeCorpus(t, baseCorpus, map[string]string{
		"extra.md": "# Extra\nSource: https://extra.example\n\nVariant " + strconv.Itoa(n) + " of the extra page.\n",
	})
}

// TestPublishSequence publishes a run of snapshots into one folder and
// checks latest, the previous snapshot handed to each build, reuse and
// pruning after each step.
func TestPublishSequence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pub")
	boom := errors.New("boom")
	type step struct {
		name         string
		variant      int
		keep         int
		build        func(staging string) error // nil: the pipeline over the variant
		wantErr      string
		wantLatest   int // the step whose snapshot latest points to afterwards
		wantPrevious int // the step whose snapshot the build was handed, -1 for none
		wantReused   bool
		wantPruned   []int // steps whose snapshots were pruned, oldest first
	}
	steps := []step{
		{name: "first", variant: 0, keep: 5, wantLatest: 0, wantPrevious: -1},
		{name: "second", variant: 1, keep: 5, wantLatest: 1, wantPrevious: 0},
		{name: "failing build", keep: 5, build: func(staging string) error {
			os.WriteFile(filepath.Join(staging, artifacts.ManifestFile), []byte("{}"), 0o644)
			return boom
		}, wantErr: "boom", wantLatest: 1},
		{name: "build that fails verification", keep: 5, build: func(staging string) error {
			if err := snapshotInto(t, corpusVariant(t, 7), staging); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(staging, artifacts.ReportFile), []byte("{}\n"), 0o644)
		}, wantErr: "fails verification", wantLatest: 1},
		{name: "first again is reused", variant: 0, keep: 5, wantLatest: 0, wantPrevious: 1, wantReused: true},
		{name: "keep 1", variant: 2, keep: 1, wantLatest: 5, wantPrevious: 0, wantPruned: []int{0, 1}},
	}
	names := map[int]string{}
	for k, s := range steps {
		var gotPrevious string
		var pub *publish.Published
		var err error
		if s.build == nil {
			pub, gotPrevious, err = publishPipeline(dir, s.keep, corpusVariant(t, s.variant))
		} else {
			pub, err = publishBuild(dir, s.keep, s.build)
		}
		if s.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("%s: got error %v, want one containing %q", s.name, err, s.wantErr)
			}
		} else {
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			names[k] = pub.Name
			if got := pub.Reused; got != s.wantReused {
				t.Errorf("%s: got reused %v, want %v", s.name, got, s.wantReused)
			}
			wantPrev := ""
			if s.wantPrevious >= 0 {
				wantPrev = filepath.Join(dir, names[s.wantPrevious])
			}
			if gotPrevious != wantPrev || pub.Previous != wantPrev {
				t.Errorf("%s: got previous %q (build) and %q (result), want %q", s.name, gotPrevious, pub.Previous, wantPrev)
			}
			var wantPruned []string
			for _, p := range s.wantPruned {
				wantPruned = append(wantPruned, names[p])
			}
			if !slices.Equal(pub.Pruned, wantPruned) {
				t.Errorf("%s: got pruned %v, want %v", s.name, pub.Pruned, wantPruned)
			}
		}
		latest, err := publish.Latest(dir)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if want := filepath.Join(dir, names[s.wantLatest]); latest != want {
			t.Errorf("%s: got latest %s, want %s", s.name, latest, want)
		}
		if leftovers := hiddenEntries(t, dir); len(leftovers) > 0 {
			t.Errorf("%s: got leftovers %v in the publish folder, want none", s.name, leftovers)
		}
	}
	m, err := artifacts.ReadManifest(filepath.Join(dir, names[5]))
	if err != nil {
		t.Fatal(err)
	}
	if name, _ := artifacts.SnapshotName(m); name != names[5] {
		t.Errorf("got folder %s, want it named %s by its manifest", names[5], name)
	}
}

func hiddenEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && e.Name() != ".ingest" { // the state folder stays
			out = append(out, e.Name())
		}
	}
	return out
}

func TestPruneKeepsLatest(t *testing.T) {
	dir := t.TempDir()
	var names []string
	for n := range 3 {
		pub, _, err := publishPipeline(dir, 5, corpusVariant(t, n+1))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, pub.Name)
	}
	for _, n := range names { // the time first, so ls lists them oldest to newest
		m, err := artifacts.ReadManifest(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		created, _ := time.Parse(time.RFC3339, m.CreatedAt)
		if !strings.HasPrefix(n, created.UTC().Format("20060102T150405Z")+"-") {
			t.Errorf("got name %s, want it to start with its created_at %s", n, m.CreatedAt)
		}
	}
	for _, n := range names {
		os.WriteFile(filepath.Join(dir, n+".diff.md"), []byte("diff"), 0o644)
	}
	if err := publish.PromoteLatest(dir, names[0]); err != nil { // a rollback to the oldest
		t.Fatal(err)
	}
	pruned, err := publish.Prune(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{names[1]}; !slices.Equal(pruned, want) {
		t.Errorf("got pruned %v, want %v (the newest and the latest stay)", pruned, want)
	}
	if _, err := os.Stat(filepath.Join(dir, names[1]+".diff.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %s.diff.md kept, want it pruned with its snapshot (%v)", names[1], err)
	}
	if _, err := os.Stat(filepath.Join(dir, names[2]+".diff.md")); err != nil {
		t.Errorf("got %s.diff.md removed, want it kept with its snapshot", names[2])
	}
	if _, err := publish.Prune(dir, 0); err == nil {
		t.Errorf("got no error for keep 0, want one")
	}
	if _, err := publish.PublishTarget(dir, -1, "").Stage(); err == nil {
		t.Errorf("got no error staging for keep -1, want one before any build")
	}
}

func TestLatestAndPromoteErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := publish.Latest(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got %v before any publish, want os.ErrNotExist", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "partial"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"partial", "../elsewhere", ".hidden", "latest", ""} {
		if err := publish.PromoteLatest(dir, name); err == nil {
			t.Errorf("got no error promoting %q, want one", name)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, publish.LatestLink)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("got latest made by a refused promote, want none (%v)", err)
	}
}

// TestLatestNeverPartial publishes snapshot after snapshot while readers
// resolve latest and read what it points to: every read must find a
// complete snapshot, its files matching its manifest.
func TestLatestNeverPartial(t *testing.T) {
	dir := t.TempDir()
	const keep = 10 // no pruning under the readers: keep outlives the test
	if _, _, err := publishPipeline(dir, keep, corpusVariant(t, 1)); err != nil {
		t.Fatal(err)
	}
	corpora := make([]string, 6)
	for n := range corpora {
		corpora[n] = corpusVariant(t, n+2)
	}
	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for !done.Load() {
				if err := readLatest(dir); err != nil {
					t.Errorf("got a reader error: %v", err)
					return
				}
				reads.Add(1)
			}
		})
	}
	for _, c := range corpora {
		if _, _, err := publishPipeline(dir, keep, c); err != nil {
			t.Error(err)
		}
	}
	done.Store(true)
	wg.Wait()
	if reads.Load() == 0 {
		t.Errorf("got no reads while publishing, want some")
	}
}

// readLatest resolves latest and checks its files against its manifest.
func readLatest(dir string) error {
	path, err := publish.Latest(dir)
	if err != nil {
		return err
	}
	m, err := artifacts.ReadManifest(path)
	if err != nil {
		return err
	}
	for name, want := range m.Files {
		got, err := artifacts.Describe(filepath.Join(path, name))
		if err != nil {
			return err
		}
		if got.SHA256 != want.SHA256 {
			return errors.New(path + "/" + name + ": does not match its manifest")
		}
	}
	return nil
}

// TestOutOwnership: an --out folder is the tool's to replace only when its
// manifest says the tool wrote it (tool: ingest), or has the shape only the
// tool's manifests had before they said so, or — its manifest damaged past
// reading — its chunks.parquet carries the tool's schema version. The names
// manifest.json and chunks.parquet prove nothing.
func TestOutOwnership(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name   string
		tamper func(t *testing.T, dir string)
		owned  bool
	}{
		{"a snapshot", func(*testing.T, string) {}, true},
		{"a snapshot from before the tool mark", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Tool = "" })
		}, true},
		{"a snapshot whose manifest is damaged", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, artifacts.ManifestFile), []byte(`{"schema_ver`), 0o644)
		}, true},
		{"another tool's manifest", func(t *testing.T, dir string) {
			stagestest.EditManifest(t, dir, func(m *artifacts.Manifest) { m.Tool = "exporter" })
		}, false},
		{"a user's manifest.json and chunks.parquet", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, artifacts.ManifestFile), []byte(`{"schema_version": "1", "files": {"chunks.parquet": {"bytes": 4}}}`), 0o644)
			os.WriteFile(filepath.Join(dir, artifacts.ChunksFile), []byte("PAR1"), 0o644)
		}, false},
		{"a user's unreadable manifest.json and their own chunks.parquet", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, artifacts.ManifestFile), []byte(`not json`), 0o644)
			os.WriteFile(filepath.Join(dir, artifacts.ChunksFile), []byte("PAR1"), 0o644)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copySnapshot(t, good)
			tt.tamper(t, dir)
			err := publish.OutTarget(dir, "").Check("")
			var no *publish.NotOwnedError
			if got := !errors.As(err, &no); got != tt.owned {
				t.Errorf("got owned %v (%v), want %v", got, err, tt.owned)
			}
		})
	}
}
