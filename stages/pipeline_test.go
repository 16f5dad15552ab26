package stages

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/extractive"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/settings"
	"github.com/ocean-safety/ingest/text/lexical"
)

const fixtureCorpus = "../testdata/corpus"

// runConfig is a test run: its config and its --out folder.
type runConfig struct {
	settings.Config
	Out string
}

func testConfig(corpusDir, out string, workers int) runConfig {
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers = corpusDir, workers
	return runConfig{cfg, out}
}

// runOut runs rc into its --out folder.
func runOut(ctx context.Context, rc runConfig, opt Options) (*Result, error) {
	return Run(ctx, rc.Config, publish.OutTarget(rc.Out, ""), opt)
}

func mustRun(t *testing.T, rc runConfig, opt Options) *Result {
	t.Helper()
	res, err := runOut(context.Background(), rc, opt)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return res
}

// TestRunGolden pins the snapshot of the fixture corpus: the canonical dump
// of chunks.parquet (schema and rows, vectors as hashes).
func TestRunGolden(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "snap")
	res := mustRun(t, testConfig(fixtureCorpus, out, 2), Options{ToolVersion: "test"})
	if res.Status != StatusOK {
		t.Errorf("got status %s, want ok; diagnostics %v", res.Status, res.Report.Diagnostics)
	}
	var dump bytes.Buffer
	if err := artifacts.Dump(&dump, filepath.Join(out, artifacts.ChunksFile)); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../testdata/golden/chunks.dump", dump.Bytes())

	if got := res.Report.Skipped; len(got) != 1 || got[0].Path != "notes.txt" {
		t.Errorf("got skipped %v, want notes.txt", got)
	}
	m, err := artifacts.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Counts.Documents != 4 || m.Counts.Chunks == 0 || m.Embedder.Dims != 1024 || m.Tokenizer != "approx-v1" || m.SchemaVersion != artifacts.SchemaVersion {
		t.Errorf("got manifest %+v, want 4 documents, 1024 dims, approx-v1", m)
	}
	if m.Counts.ByKind["structured"] != 3 || m.Counts.ByLang["pt"] == 0 || m.Counts.ByElement["table_row"] != 2 {
		t.Errorf("got counts %+v, want 3 structured chunks (2 table rows) and pt chunks", m.Counts)
	}
	info, err := artifacts.Describe(filepath.Join(out, artifacts.ChunksFile))
	if err != nil || info.SHA256 != m.Files[artifacts.ChunksFile].SHA256 {
		t.Errorf("got chunks.parquet sha %s, manifest says %s (%v)", info.SHA256, m.Files[artifacts.ChunksFile].SHA256, err)
	}
}

// TestRunDeterministic: the same corpus and config give the same bytes, run
// after run and whatever the number of workers.
func TestRunDeterministic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var sums []string
	for i, workers := range []int{1, 8, 8} {
		out := filepath.Join(dir, "snap"+strconv.Itoa(i))
		mustRun(t, testConfig("../corpus/ocean", out, workers), Options{})
		info, err := artifacts.Describe(filepath.Join(out, artifacts.ChunksFile))
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, info.SHA256)
	}
	if sums[0] != sums[1] || sums[1] != sums[2] {
		t.Errorf("got chunks.parquet hashes %v (1, 8, 8 workers), want all equal", sums)
	}
}

// copyCorpus copies the corpus at src into a temporary folder, so a test
// can edit it, and adds files.
func copyCorpus(t *testing.T, src string, extra map[string]string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return writeFile(filepath.Join(dst, rel), b)
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range extra {
		if err := writeFile(filepath.Join(dst, rel), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// TestRunBadInput: each bad document is reported with its line, the good
// ones are still published and the run is partial; --strict publishes nothing.
func TestRunBadInput(t *testing.T) {
	t.Parallel()
	good := mustRun(t, testConfig(fixtureCorpus, filepath.Join(t.TempDir(), "good"), 2), Options{})
	tests := []struct {
		name     string
		file     string
		content  string
		wantCode string
		wantLine int
		partial  bool // the document is rejected
	}{
		{"missing title: the file name is used", "warn.md", "---\nsource: https://x\n---\ntext\n", "missing-title", 1, false},
		{"missing source", "bad.md", "# T\n\ntext\n", "missing-source", 1, true},
		{"lore without beach", "bad.md", "# T\nSource: https://x\nKind: lore\n\ntext\n", "lore-without-beach", 3, true},
		{"unknown kind", "bad.md", "# T\nSource: https://x\nKind: poem\n\ntext\n", "unknown-kind", 3, true},
		{"unknown lang", "bad.md", "# T\nSource: https://x\nLang: de\n\ntext\n", "unknown-lang", 3, true},
		{"invalid utf-8", "bad.md", "# T\nSource: https://x\n\nline\nbad \xc3\x28 byte\n", "invalid-utf8", 5, true},
		{"binary", "bad.md", "# T\nSource: https://x\n\x00\x00\x00", "binary", 3, true},
		{"empty", "bad.md", "", "empty", 0, true},
		{"unknown header", "warn.md", "# T\nSource: https://x\nAuthor: me\n\ntext\n", "unknown-header", 3, false},
		{"table in prose", "warn.md", "# T\nSource: https://x\n\ntext\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "table-in-prose", 6, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := copyCorpus(t, fixtureCorpus, map[string]string{tt.file: tt.content})
			out := filepath.Join(t.TempDir(), "snap")
			res := mustRun(t, testConfig(dir, out, 2), Options{})
			var found *schema.Diagnostic
			for i, d := range res.Report.Diagnostics {
				if d.Code == tt.wantCode {
					found = &res.Report.Diagnostics[i]
				}
			}
			if found == nil || found.Line != tt.wantLine || found.Path != tt.file {
				t.Fatalf("got diagnostics %v, want %s at %s:%d", res.Report.Diagnostics, tt.wantCode, tt.file, tt.wantLine)
			}
			if got := res.Status == StatusPartial; got != tt.partial {
				t.Errorf("got status %s, want partial=%v", res.Status, tt.partial)
			}
			chunks, err := artifacts.ReadChunks(filepath.Join(out, artifacts.ChunksFile))
			if err != nil {
				t.Fatal(err)
			}
			want := good.Manifest.Counts.Chunks
			if !tt.partial {
				want++ // the warned document is ingested too (one chunk of text, or text + rows)
			}
			if tt.partial && len(chunks) != want || !tt.partial && len(chunks) < want {
				t.Errorf("got %d chunks published, want %d (the good documents)", len(chunks), want)
			}

			strictOut := filepath.Join(t.TempDir(), "strict")
			cfg := testConfig(dir, strictOut, 2)
			cfg.Strict = true
			if _, err := runOut(context.Background(), cfg, Options{}); !errors.Is(err, ErrStrict) {
				t.Errorf("strict: got %v, want ErrStrict", err)
			}
			if _, err := os.Stat(strictOut); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("strict: got %s published (%v), want nothing", strictOut, err)
			}
			assertNoTemp(t, filepath.Dir(strictOut))
		})
	}
}

// failingFile fails every write after limit bytes: a disk that fills up
// half-way through the Parquet file.
type failingFile struct {
	io.WriteCloser
	limit, n int
}

var errDiskFull = errors.New("injected: disk full")

func (f *failingFile) Write(p []byte) (int, error) {
	if f.n+len(p) > f.limit {
		return 0, errDiskFull
	}
	f.n += len(p)
	return f.WriteCloser.Write(p)
}

// failingEmbedder embeds through Builtin and fails (or cancels) after calls batches.
type failingEmbedder struct {
	*lexical.Builtin
	after  int32
	calls  atomic.Int32
	cancel context.CancelFunc // when set, cancel instead of failing
	panics bool               // when set, panic instead of failing
}

var errEmbedder = errors.New("injected: model server gone")

// Offline: it stands in for a model server.
func (e *failingEmbedder) Offline() bool { return false }

func (e *failingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.calls.Add(1) > e.after {
		if e.cancel != nil {
			e.cancel()
			return nil, context.Canceled
		}
		if e.panics {
			panic("injected: a bug in the embedder")
		}
		return nil, errEmbedder
	}
	return e.Builtin.Embed(ctx, texts)
}

// panickingHeaders is a header writer with a bug: it panics on a chunk.
type panickingHeaders struct{ *extractive.Extractive }

func (panickingHeaders) Header(context.Context, schema.Document, schema.Chunk) (models.Enrichment, error) {
	panic("injected: a bug in the header writer")
}

// TestRunFailureKeepsPreviousSnapshot: a run that fails half-way (disk
// full, model server gone, interrupted) leaves the previous snapshot
// byte-identical and no temporary folder behind.
func TestRunFailureKeepsPreviousSnapshot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  func(cancel context.CancelFunc) Options
		want error
	}{
		{"writer fails", func(context.CancelFunc) Options {
			return Options{CreateFile: func(p string) (io.WriteCloser, error) {
				f, err := os.Create(p)
				return &failingFile{WriteCloser: f, limit: 4096}, err
			}}
		}, errDiskFull},
		{"embedder fails", func(context.CancelFunc) Options {
			return Options{Embedder: &failingEmbedder{Builtin: lexical.NewBuiltin(1024), after: 2}}
		}, errEmbedder},
		{"header writer panics", func(context.CancelFunc) Options {
			return Options{Headers: panickingHeaders{extractive.New(200)}}
		}, ErrPanic},
		{"embedder panics", func(context.CancelFunc) Options {
			return Options{Embedder: &failingEmbedder{Builtin: lexical.NewBuiltin(1024), after: 2, panics: true}}
		}, ErrPanic},
		{"interrupted", func(cancel context.CancelFunc) Options {
			return Options{Embedder: &failingEmbedder{Builtin: lexical.NewBuiltin(1024), after: 2, cancel: cancel}}
		}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			parent := t.TempDir()
			out := filepath.Join(parent, "snap")
			mustRun(t, testConfig(fixtureCorpus, out, 2), Options{})
			before := snapshotFiles(t, out)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := runOut(ctx, testConfig("../corpus/ocean", out, 4), tt.opt(cancel))
			if !errors.Is(err, tt.want) {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if after := snapshotFiles(t, out); !equalFiles(before, after) {
				t.Errorf("previous snapshot changed by a failed run")
			}
			assertNoTemp(t, parent)
		})
	}
}

func snapshotFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

func equalFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func assertNoTemp(t *testing.T, parent string) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary folder %s left behind", e.Name())
		}
	}
}

// TestRunReplacesSnapshot: a second successful run replaces the first whole.
func TestRunReplacesSnapshot(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	out := filepath.Join(parent, "snap")
	mustRun(t, testConfig(fixtureCorpus, out, 2), Options{})
	first, _ := artifacts.ReadManifest(out)
	mustRun(t, testConfig("../corpus/ocean", out, 2), Options{})
	second, _ := artifacts.ReadManifest(out)
	if first.CorpusFingerprint == second.CorpusFingerprint || second.Counts.Documents <= first.Counts.Documents {
		t.Errorf("got manifests %s then %s, want the second corpus published", first.CorpusFingerprint, second.CorpusFingerprint)
	}
	assertNoTemp(t, parent)
}

// TestRunBatches: embedding calls carry at most embed.batch_size texts, in
// chunk order.
func TestRunBatches(t *testing.T) {
	t.Parallel()
	rec := &recordingEmbedder{Builtin: lexical.NewBuiltin(1024)}
	res := mustRun(t, testConfig("../corpus/ocean", filepath.Join(t.TempDir(), "s"), 4), Options{Embedder: rec})
	total, short := 0, 0
	for i, n := range rec.sizes {
		if n > 10 || n < 1 {
			t.Errorf("batch %d: got %d texts, want 1..10", i, n)
		}
		if n < 10 {
			short++
		}
		total += n
	}
	if short > 1 {
		t.Errorf("got %d batches under 10 texts, want at most 1 (the last)", short)
	}
	if total != res.Manifest.Counts.Chunks {
		t.Errorf("got %d texts embedded, want %d chunks", total, res.Manifest.Counts.Chunks)
	}
}

type recordingEmbedder struct {
	*lexical.Builtin
	mu    sync.Mutex
	sizes []int
}

// Offline: it stands in for a model server.
func (e *recordingEmbedder) Offline() bool { return false }

func (e *recordingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.sizes = append(e.sizes, len(texts))
	e.mu.Unlock()
	return e.Builtin.Embed(ctx, texts)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// backendConfig fills the fields of a backend config that a run's config
// decides, as the command line does.
func backendConfig(cfg settings.Config, bc models.BackendConfig) models.BackendConfig {
	bc.Dims, bc.BatchSize, bc.HeaderMaxChars, bc.MaxDims = cfg.Embed.Dims, cfg.Embed.BatchSize, cfg.Header.MaxChars, cfg.Embed.MaxDims
	return bc
}
