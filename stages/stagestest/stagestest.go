// Package stagestest builds small corpora and their snapshots for the
// tests of the packages that read snapshots (artifacts, publish, deliver,
// cmd), the way net/http/httptest serves net/http's users.
package stagestest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/publish"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages"
	"github.com/ocean-safety/ingest/stages/settings"
)

// Base is the corpus test cases edit: prose with sections and a
// threshold, safety rules, and Portuguese lore.
var Base = map[string]string{
	"waves.md": `# Waves and surf
Source: https://www.weather.gov/safety/ripcurrent-science

Wave height is measured from trough to crest. Forecasts give the significant height, the mean of the highest third of the waves, so single waves can be twice as high as the forecast says.

## Who should go in

Waves above 1.5 m (5 ft) are dangerous for beginners. Experienced surfers handle bigger days, but even they stay out when the lifeguards close the beach to everyone with the double red flag.

## Period

A long period means powerful waves that break with more force than their height suggests. A swell of twelve seconds or more carries its energy deep and far, and it breaks hard on the sandbars.
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

// SourceLabel is set in every test config: the default is a slug of the
// corpus folder's name, and every case writes its corpus to a new temporary
// folder.
const SourceLabel = "ocean"

// Gone marks a file a case deletes.
const Gone = "\x00gone"

// WriteCorpus writes base with the edits applied into a new temporary folder.
func WriteCorpus(t testing.TB, base, edits map[string]string) string {
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
		if s == Gone {
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

// Build runs the pipeline over a corpus into a new snapshot folder.
func Build(t testing.TB, corpusDir string, opt stages.Options) string {
	t.Helper()
	cfg := settings.DefaultConfig()
	cfg.Corpus, cfg.Workers, cfg.SourceLabel = corpusDir, 1, SourceLabel
	out := filepath.Join(t.TempDir(), "snap")
	if _, err := stages.Run(context.Background(), cfg, publish.OutTarget(out, ""), opt); err != nil {
		t.Fatalf("build snapshot of %s: %v", corpusDir, err)
	}
	return out
}

// Copy copies a snapshot folder, so each case can tamper with its own.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	CopyTo(t, src, dst)
	return dst
}

// CopyTo copies the files of a snapshot folder (no subfolders) into dst,
// made if missing.
func CopyTo(t testing.TB, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// HandChunks makes a document's chunks from "Heading/text" specs, with the
// content hash of the text and a header that follows it.
func HandChunks(path string, specs ...string) []schema.Chunk {
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

// WriteHand writes chunks (in order) as a snapshot with a minimal
// manifest, for cases the chunker cannot make on purpose.
func WriteHand(t testing.TB, chunks []schema.Chunk) string {
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

// EditManifest rewrites a snapshot's manifest through fn.
func EditManifest(t testing.TB, dir string, fn func(*artifacts.Manifest)) {
	t.Helper()
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	fn(&m)
	if err := artifacts.WriteJSON(filepath.Join(dir, artifacts.ManifestFile), m); err != nil {
		t.Fatal(err)
	}
}

// RipDoc is a small safety document and one of its paragraphs, with a
// quantity: what a model writer is asked about in tests.
func RipDoc() (schema.Document, schema.Chunk) {
	text := "# Rip currents\n\nRip currents pull swimmers away from the beach.\n\n## Escape\n\n" +
		"If a rip current catches you, swim parallel to the shore. Waves above 1.5 m are dangerous.\n"
	doc := schema.Document{Path: "safety/rips.md", Title: "Rip currents", Lang: schema.LangEN, Kind: schema.KindSafety, Text: text}
	c := schema.Chunk{
		DocPath: doc.Path, DocTitle: doc.Title, Lang: schema.LangEN, Kind: schema.KindSafety, Element: schema.ElementParagraph,
		SectionPath: []string{"Escape"}, Text: "If a rip current catches you, swim parallel to the shore. Waves above 1.5 m are dangerous.",
	}
	return doc, c
}
