package diff_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diff"
	"github.com/ocean-safety/ingest/internal/golden"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/stagestest"
	"github.com/ocean-safety/ingest/text/lexical"
)

const diffGoldens = "../../testdata/diff"

// renamedEmbedder is the built-in embedder under another name: the vectors
// are the same, the manifest is not.
type renamedEmbedder struct{ *lexical.Builtin }

func (renamedEmbedder) Name() string { return "builtin-hash-v2-test" }

var _ models.Embedder = renamedEmbedder{}

var (
	baseCorpus        = stagestest.Base
	gone              = stagestest.Gone
	writeCorpus       = stagestest.WriteCorpus
	buildSnapshot     = stagestest.Build
	handChunks        = stagestest.HandChunks
	writeHandSnapshot = stagestest.WriteHand
)

func TestDiffGolden(t *testing.T) {
	base := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	tests := []struct {
		name     string
		edits    map[string]string
		embedder models.Embedder
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
			"## Who should go in\n\nWaves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days, but even they stay out when the lifeguards close the beach to everyone with the double red flag.\n\n## Period\n\nA long period means powerful waves that break with more force than their height suggests. A swell of twelve seconds or more carries its energy deep and far, and it breaks hard on the sandbars.\n",
			"## Period\n\nA long period means powerful waves that break with more force than their height suggests. A swell of twelve seconds or more carries its energy deep and far, and it breaks hard on the sandbars.\n\n## Beginners\n\nWaves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days, but even they stay out when the lifeguards close the beach to everyone with the double red flag.\n", 1)},
			want: "docs +0 -0 ~1 r0; chunks +0 -0 ~0 m1 l0; thresholds +0 -0 ~0; components 0"},
		{name: "threshold-changed", edits: map[string]string{"waves.md": strings.Replace(baseCorpus["waves.md"],
			"Waves above 1.5 m (5 ft)", "Waves above 2 m", 1)},
			want: "docs +0 -0 ~1 r0; chunks +0 -0 ~1 m0 l0; thresholds +0 -0 ~1; components 0"},
		{name: "embedder-changed", embedder: renamedEmbedder{lexical.NewBuiltin(1024)},
			want: "docs +0 -0 ~0 r0; chunks +0 -0 ~0 m0 l0; thresholds +0 -0 ~0; components 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := buildSnapshot(t, writeCorpus(t, baseCorpus, tt.edits), stages.Options{Embedder: tt.embedder})
			rep, err := diff.Compare(base, next)
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
			golden.Check(t, filepath.Join(diffGoldens, tt.name+".md"), md)
			golden.Check(t, filepath.Join(diffGoldens, tt.name+".json"), js)

			// The report of the same two snapshots is the same bytes.
			again, err := diff.Compare(base, next)
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
	// Manifests that lie about their rows or their run (issue 31, item 9):
	// before, a diff against each said "No changes".
	lying := func(fn func(*artifacts.Manifest)) string {
		dir := stagestest.Copy(t, good)
		stagestest.EditManifest(t, dir, fn)
		return dir
	}
	documents := lying(func(m *artifacts.Manifest) { m.Counts.Documents = 999 })
	embedder := lying(func(m *artifacts.Manifest) { m.Embedder.Name = "other-embedder" })
	kinds := lying(func(m *artifacts.Manifest) { m.Counts.ByKind["safety"]++; m.Counts.ByKind["lore"]-- })
	chunks := lying(func(m *artifacts.Manifest) { m.Counts.Chunks = 99 })
	tests := []struct {
		name      string
		old, next string
		want      string // in the error
	}{
		{"missing old", missing, good, "old snapshot " + missing},
		{"missing new", good, missing, "new snapshot " + missing},
		{"corrupt new", good, corrupt, "new snapshot " + corrupt},
		{"new says 999 documents", good, documents, "new snapshot " + documents + ": its manifest.json does not describe the snapshot (counts.documents 999, its run recorded 3 (audit.jsonl))"},
		{"old names another embedder", embedder, good, "old snapshot " + embedder + `: its manifest.json does not describe the snapshot (embedder other-embedder (1024 dims), its vectors' reuse key says "builtin-hash-v1|dims=1024")`},
		{"new counts kinds its rows do not", good, kinds, "kind lore: 1 chunks, the manifest says 0; kind safety: 3 chunks, the manifest says 4"},
		{"new says 99 chunks", good, chunks, "counts.chunks 99, its run recorded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := diff.Compare(tt.old, tt.next)
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
func scrubHashes(rep *diff.Report) {
	label := func(a, b, what string) (string, string) {
		if a == b {
			return what, what
		}
		return "old-" + what, "new-" + what
	}
	// A name is its build time and its content: the same content named in
	// two different seconds is still the same snapshot.
	content := func(name string) string { return name[strings.LastIndexByte(name, '-')+1:] }
	oldName, newName := label(content(rep.Old.Name), content(rep.New.Name), "name")
	rep.Old.Name, rep.New.Name = oldName, newName
	rep.Old.ConfigHash, rep.New.ConfigHash = label(rep.Old.ConfigHash, rep.New.ConfigHash, "config-hash")
}

func TestDiffCancelled(t *testing.T) {
	snap := buildSnapshot(t, writeCorpus(t, baseCorpus, nil), stages.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := diff.CompareContext(ctx, snap, snap); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

func summaryString(s diff.Summary) string {
	return fmt.Sprintf("docs +%d -%d ~%d r%d; chunks +%d -%d ~%d m%d l%d; thresholds +%d -%d ~%d; components %d",
		s.DocumentsAdded, s.DocumentsRemoved, s.DocumentsChanged, s.DocumentsRegenerated,
		s.ChunksAdded, s.ChunksRemoved, s.ChunksChanged, s.ChunksMoved, s.ChunksRelabelled,
		s.ThresholdsAdded, s.ThresholdsRemoved, s.ThresholdsChanged, s.ComponentsChanged)
}

func render(t *testing.T, rep *diff.Report) (md, js []byte) {
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
			rep, err := diff.Compare(writeHandSnapshot(t, tt.old), writeHandSnapshot(t, tt.next))
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

func changeString(c diff.ChunkChange) string {
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
	if c.Change == diff.ChangeMoved && c.Old != nil && !slices.Equal(c.Old.SectionPath, c.New.SectionPath) {
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
			rep, err := diff.Compare(writeHandSnapshot(t, with(tt.old...)), writeHandSnapshot(t, with(tt.next...)))
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
