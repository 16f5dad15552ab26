package artifacts_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
)

var update = flag.Bool("update", false, "rewrite golden files")

const diffGoldens = "../testdata/diff"

// baseCorpus is the corpus every diff case edits: prose with sections and a
// threshold, safety rules, and Portuguese lore.
var baseCorpus = map[string]string{
	"waves.md": `# Waves and surf
Source: https://www.weather.gov/safety/ripcurrent-science

Wave height is measured from trough to crest. Forecasts give the significant height.

## Who should go in

Waves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days.

## Period

A long period means powerful waves that break with more force than their height suggests.
`,
	"safety/rules.md": `# Beach rules
Source: https://www.usla.org/page/RIPCURRENTS

- Swim near a lifeguard.
- Never swim alone.
- If caught in a rip current, swim parallel to the shore.
`,
	"pt-BR/lore/joaquina.md": `# Praia da Joaquina
Source: https://www.pmf.sc.gov.br
Kind: lore
Beach: joaquina

A Joaquina é famosa pelas dunas e pelas ondas fortes.
`,
}

// testSourceLabel is set in every test config: the default is a slug of the
// corpus folder's name, and every case writes its corpus to a new temporary
// folder.
const testSourceLabel = "ocean"

// gone marks a file a case deletes.
const gone = "\x00gone"

// renamedEmbedder is the built-in embedder under another name: the vectors
// are the same, the manifest is not.
type renamedEmbedder struct{ *stages.Builtin }

func (renamedEmbedder) Name() string { return "builtin-hash-v2-test" }

var _ stages.Embedder = renamedEmbedder{}

// writeCorpus writes base with the edits applied into a new temporary folder.
func writeCorpus(t *testing.T, base, edits map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	for p, s := range base {
		files[p] = s
	}
	for p, s := range edits {
		files[p] = s
	}
	for p, s := range files {
		if s == gone {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// buildSnapshot runs the pipeline over a corpus into a new snapshot folder.
func buildSnapshot(t *testing.T, corpusDir string, opt stages.Options) string {
	t.Helper()
	cfg := stages.DefaultConfig()
	cfg.Corpus, cfg.Out, cfg.Workers = corpusDir, filepath.Join(t.TempDir(), "snap"), 1
	cfg.SourceLabel = testSourceLabel
	if _, err := stages.Run(context.Background(), cfg, opt); err != nil {
		t.Fatalf("build snapshot of %s: %v", corpusDir, err)
	}
	return cfg.Out
}

func TestDiffGolden(t *testing.T) {
	base := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name     string
		edits    map[string]string
		embedder stages.Embedder
		want     string // the summary, as summaryString prints it
	}{
		{name: "identical",
			want: "docs +0 -0 ~0 r0; chunks +0 -0 ~0 m0 l0; thresholds +0 -0 ~0; components 0"},
		{name: "doc-added", edits: map[string]string{"tides.md": "# Tides\nSource: https://tides.example\n\nTwo high tides a day.\n\nSpring tides follow the full moon.\n"},
			want: "docs +1 -0 ~0 r0; chunks +1 -0 ~0 m0 l0; thresholds +0 -0 ~0; components 0"},
		{name: "doc-removed", edits: map[string]string{"safety/rules.md": gone},
			want: "docs +0 -1 ~0 r0; chunks +0 -3 ~0 m0 l0; thresholds +0 -0 ~0; components 0"},
		{name: "paragraph-edited", edits: map[string]string{"waves.md": strings.Replace(baseCorpus["waves.md"],
			"that break with more force", "that break with far more force", 1)},
			want: "docs +0 -0 ~1 r0; chunks +0 -0 ~1 m0 l0; thresholds +0 -0 ~0; components 0"},
		{name: "section-moved", edits: map[string]string{"waves.md": strings.Replace(baseCorpus["waves.md"],
			"## Who should go in\n\nWaves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days.\n\n## Period\n\nA long period means powerful waves that break with more force than their height suggests.\n",
			"## Period\n\nA long period means powerful waves that break with more force than their height suggests.\n\n## Beginners\n\nWaves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days.\n", 1)},
			want: "docs +0 -0 ~1 r0; chunks +0 -0 ~0 m1 l0; thresholds +0 -0 ~0; components 0"},
		{name: "threshold-changed", edits: map[string]string{"waves.md": strings.Replace(baseCorpus["waves.md"],
			"Waves above 1.5 m (5 ft)", "Waves above 2 m", 1)},
			want: "docs +0 -0 ~1 r0; chunks +0 -0 ~1 m0 l0; thresholds +0 -0 ~1; components 0"},
		{name: "embedder-changed", embedder: renamedEmbedder{stages.NewBuiltin(1024)},
			want: "docs +0 -0 ~0 r0; chunks +0 -0 ~0 m0 l0; thresholds +0 -0 ~0; components 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := buildSnapshot(t, writeCorpus(t, baseCorpus, tt.edits), stages.Options{Embedder: tt.embedder})
			rep, err := artifacts.Diff(base, next)
			if err != nil {
				t.Fatal(err)
			}
			if got := summaryString(rep.Summary); got != tt.want {
				t.Errorf("got summary %s, want %s", got, tt.want)
			}
			if got, want := rep.Changed(), tt.name != "identical"; got != want {
				t.Errorf("got Changed() %v, want %v", got, want)
			}
			scrubHashes(rep)
			md, js := render(t, rep)
			golden(t, filepath.Join(diffGoldens, tt.name+".md"), md)
			golden(t, filepath.Join(diffGoldens, tt.name+".json"), js)

			// The report of the same two snapshots is the same bytes.
			again, err := artifacts.Diff(base, next)
			if err != nil {
				t.Fatal(err)
			}
			scrubHashes(again)
			if md2, js2 := render(t, again); !bytes.Equal(md, md2) || !bytes.Equal(js, js2) {
				t.Errorf("got a different report on the second diff of the same snapshots")
			}
		})
	}
}

func TestDiffErrors(t *testing.T) {
	good := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	corrupt := t.TempDir()
	for _, name := range []string{artifacts.ManifestFile, artifacts.ChunksFile} {
		b, err := os.ReadFile(filepath.Join(good, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == artifacts.ChunksFile {
			b = b[:len(b)/2]
		}
		if err := os.WriteFile(filepath.Join(corrupt, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(t.TempDir(), "nope")
	tests := []struct {
		name      string
		old, next string
		want      string // in the error
	}{
		{"missing old", missing, good, "old snapshot " + missing},
		{"missing new", good, missing, "new snapshot " + missing},
		{"corrupt new", good, corrupt, "new snapshot " + corrupt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := artifacts.Diff(tt.old, tt.next)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// scrubHashes replaces the config hash and the snapshot names (which hold
// the chunks.parquet hash) with labels: they change with every new config
// key and every Parquet writer setting, which is not what these goldens pin.
// The corpus fingerprint, doc versions and content hashes stay: they hash
// the corpus text alone.
func scrubHashes(rep *artifacts.DiffReport) {
	label := func(a, b, what string) (string, string) {
		if a == b {
			return what, what
		}
		return "old-" + what, "new-" + what
	}
	oldName, newName := label(rep.Old.Name, rep.New.Name, "name")
	rep.Old.Name, rep.New.Name = oldName, newName
	rep.Old.ConfigHash, rep.New.ConfigHash = label(rep.Old.ConfigHash, rep.New.ConfigHash, "config-hash")
}

func TestDiffCancelled(t *testing.T) {
	snap := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := artifacts.DiffContext(ctx, snap, snap); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func summaryString(s artifacts.DiffSummary) string {
	return fmt.Sprintf("docs +%d -%d ~%d r%d; chunks +%d -%d ~%d m%d l%d; thresholds +%d -%d ~%d; components %d",
		s.DocumentsAdded, s.DocumentsRemoved, s.DocumentsChanged, s.DocumentsRegenerated,
		s.ChunksAdded, s.ChunksRemoved, s.ChunksChanged, s.ChunksMoved, s.ChunksRelabelled,
		s.ThresholdsAdded, s.ThresholdsRemoved, s.ThresholdsChanged, s.ComponentsChanged)
}

func render(t *testing.T, rep *artifacts.DiffReport) (md, js []byte) {
	t.Helper()
	var m, j bytes.Buffer
	if err := rep.WriteMarkdown(&m); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	return m.Bytes(), j.Bytes()
}

// golden compares got with the file at path, or rewrites it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// handChunks makes a document's chunks from "Heading/text" specs, with the
// content hash of the text and a header that follows it.
func handChunks(path string, specs ...string) []schema.Chunk {
	out := make([]schema.Chunk, len(specs))
	for i, s := range specs {
		heading, text, _ := strings.Cut(s, "/")
		sum := sha256.Sum256([]byte(text))
		out[i] = schema.Chunk{DocPath: path, DocVersion: "v-" + strings.Join(specs, ","), DocTitle: "Doc", Order: i,
			SectionPath: []string{heading}, Text: text, ContentHash: hex.EncodeToString(sum[:]),
			ChunkID: fmt.Sprintf("%s-%d-%s", path, i, text), Kind: schema.KindProse, Lang: schema.LangEN,
			Element: schema.ElementParagraph, ContextHeader: "Doc › " + heading + ": " + text,
			HeaderSource: schema.HeaderExtractive, Embedding: []float32{1, 0, 0, 0}}
	}
	return out
}

// writeHandSnapshot writes chunks (in order) as a snapshot with a minimal
// manifest, for cases the chunker cannot make on purpose.
func writeHandSnapshot(t *testing.T, chunks []schema.Chunk) string {
	t.Helper()
	dir := t.TempDir()
	w, err := artifacts.NewChunkWriter(filepath.Join(dir, artifacts.ChunksFile), 4)
	if err != nil {
		t.Fatal(err)
	}
	var counts artifacts.Counts
	for i, c := range chunks {
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		counts.Add(c)
		if i == 0 || c.DocPath != chunks[i-1].DocPath {
			counts.Documents++
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	info, err := artifacts.Describe(filepath.Join(dir, artifacts.ChunksFile))
	if err != nil {
		t.Fatal(err)
	}
	info.Rows = len(chunks)
	m := artifacts.Manifest{SchemaVersion: artifacts.SchemaVersion, CorpusFingerprint: strings.Repeat("ab", 32),
		ConfigHash: strings.Repeat("cd", 32), Embedder: artifacts.Component{Name: "hand", Dims: 4}, Counts: counts,
		Files: map[string]artifacts.FileInfo{artifacts.ChunksFile: info}}
	if err := artifacts.WriteJSON(filepath.Join(dir, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDiffAlignment pins how a document's chunks are matched: by text along
// the common order, so an insertion does not move what follows it.
func TestDiffAlignment(t *testing.T) {
	relabel := handChunks("d.md", "A/x", "A/y")
	relabel[1].ContextHeader = "a better header"
	relabel[1].Fields.Hazard = "rip_current"
	tests := []struct {
		name      string
		old, next []schema.Chunk
		want      string
	}{
		{"insert at top", handChunks("d.md", "A/x", "A/y", "B/z"), handChunks("d.md", "A/new", "A/x", "A/y", "B/z"),
			"added #0 [A]"},
		{"edit in the middle", handChunks("d.md", "A/x", "A/y", "A/z"), handChunks("d.md", "A/x", "A/y2", "A/z"),
			"changed #1 [A]"},
		{"swap", handChunks("d.md", "A/x", "A/y", "A/z"), handChunks("d.md", "A/y", "A/x", "A/z"),
			"moved #0→#1 [A]"},
		{"heading renamed", handChunks("d.md", "A/x", "B/y"), handChunks("d.md", "A/x", "C/y"),
			"moved #1 [C] from [B] context_header"},
		{"edit under a renamed heading", handChunks("d.md", "A/x", "B/y"), handChunks("d.md", "A/x", "C/y2"),
			"changed #1 [C]"},
		{"section moved and edited", handChunks("d.md", "A/x", "B/y", "C/z"), handChunks("d.md", "A/x", "C/z", "B/y2"),
			"changed #1→#2 [B]"},
		{"delete here, add there", handChunks("d.md", "A/x", "A/y", "B/z"), handChunks("d.md", "A/x", "B/z", "B/w"),
			"removed #1 [A]; added #2 [B]"},
		{"duplicate text dropped", handChunks("d.md", "A/x", "A/x", "A/y"), handChunks("d.md", "A/x", "A/y"),
			"removed #1 [A]"},
		{"header and fields only", handChunks("d.md", "A/x", "A/y"), relabel,
			"relabelled #1 [A] context_header hazard"},
		{"unchanged", handChunks("d.md", "A/x", "A/y"), handChunks("d.md", "A/x", "A/y"),
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := artifacts.Diff(writeHandSnapshot(t, tt.old), writeHandSnapshot(t, tt.next))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range rep.Documents {
				for _, c := range d.Chunks {
					got = append(got, changeString(c))
				}
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
}

func changeString(c artifacts.ChunkChange) string {
	s := string(c.Change)
	switch {
	case c.Old == nil:
		s += fmt.Sprintf(" #%d", c.New.Order)
	case c.New == nil || c.Old.Order == c.New.Order:
		s += fmt.Sprintf(" #%d", c.Old.Order)
	default:
		s += fmt.Sprintf(" #%d→#%d", c.Old.Order, c.New.Order)
	}
	s += " [" + strings.Join(c.SectionPath, " › ") + "]"
	if c.Change == artifacts.ChangeMoved && c.Old != nil && !slices.Equal(c.Old.SectionPath, c.New.SectionPath) {
		s += " from [" + strings.Join(c.Old.SectionPath, " › ") + "]"
	}
	for _, f := range c.Fields {
		s += " " + f.Name
	}
	return s
}

// TestDiffThresholds pins how thresholds match: by subject and comparator,
// equal SI values cancel, the rest pair in value order.
func TestDiffThresholds(t *testing.T) {
	th := func(subject, comparator string, v float64) schema.Threshold {
		return schema.Threshold{Subject: subject, Comparator: comparator, Value: v, SIUnit: "m", Surface: fmt.Sprint(v, " m")}
	}
	with := func(ts ...schema.Threshold) []schema.Chunk {
		cs := handChunks("d.md", "A/x")
		cs[0].Thresholds = ts
		return cs
	}
	tests := []struct {
		name      string
		old, next []schema.Threshold
		want      string
	}{
		{"value changed", []schema.Threshold{th("surf", "above", 1.5)}, []schema.Threshold{th("surf", "above", 2)},
			"changed surf above 1.5→2"},
		{"same values, reworded", []schema.Threshold{th("surf", "above", 1.5)}, []schema.Threshold{{Subject: "surf", Comparator: "above", Value: 1.5 + 1e-12, SIUnit: "m", Surface: "5 ft"}},
			""},
		{"one of two changed", []schema.Threshold{th("surf", "above", 1.5), th("surf", "above", 3)}, []schema.Threshold{th("surf", "above", 3), th("surf", "above", 2)},
			"changed surf above 1.5→2"},
		{"comparator changed", []schema.Threshold{th("wind", "above", 10)}, []schema.Threshold{th("wind", "below", 10)},
			"removed wind above 10→; added wind below →10"},
		{"added", nil, []schema.Threshold{th("surf", "at_most", 1)},
			"added surf at_most →1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := artifacts.Diff(writeHandSnapshot(t, with(tt.old...)), writeHandSnapshot(t, with(tt.next...)))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range rep.Documents {
				for _, c := range d.Thresholds {
					s := fmt.Sprintf("%s %s %s ", c.Change, c.Subject, c.Comparator)
					if c.Old != nil {
						s += fmt.Sprint(c.Old.Value)
					}
					s += "→"
					if c.New != nil {
						s += fmt.Sprint(c.New.Value)
					}
					got = append(got, s)
				}
			}
			if g := strings.Join(got, "; "); g != tt.want {
				t.Errorf("got %q, want %q", g, tt.want)
			}
		})
	}
}
