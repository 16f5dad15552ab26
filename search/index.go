package search

import (
	"context"
	"fmt"
	"github.com/ocean-safety/ingest/search/golden"
	"math"
	"sort"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
	"github.com/ocean-safety/ingest/text/lexicon"
)

// Embedder embeds questions for the vector leg. It must be the embedder that
// embedded the snapshot's chunks, or cosine similarity means nothing.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

var _ Embedder = (*lexical.Builtin)(nil)

// Index is a snapshot held in memory for searching: per chunk what a result
// shows, what the filters test, the BM25 term counts and the embedding.
type Index struct {
	entries  []entry
	stemmers stemmers // one a language: a chunk's terms are stemmed by its own language's rules
	docs     map[string]*docInfo
	beaches  []beach // sorted by id
	embedder Embedder
	embName  string // the snapshot's embedder, as its manifest names it ("" in memory)
	// vecWeight is the vector leg's weight in hybrid's fusion (vectorWeight).
	vecWeight float64
	floors    map[Mode]float64 // the snapshot's relevance floors (floorsOf); nil in memory
	noEmbed   error            // why the vector leg is unavailable, when embedder is nil
	// learned and dictionary translate questions' words (translate.go);
	// nil: none.
	learned, dictionary *lexicon.Lexicon
}

// entry is one chunk, reduced to what searching needs.
type entry struct {
	chunkID, docPath, text, header string
	order                          int
	sectionPath                    []string
	lang                           schema.Lang
	kind                           schema.Kind
	beachID, sourceLabel           string

	tf     map[string]float64 // BM25 term counts: the text's, plus its context's weighted (fields.go)
	length float64            // BM25 document length: the text's terms, plus its context's weighted
	vec    []float32
	norm   float64
}

// docInfo is what the golden-set check needs to know of a document.
type docInfo struct {
	lang     schema.Lang
	sections map[string]bool // every element of every chunk's section path
}

// Load reads a snapshot folder (manifest.json and chunks.parquet), streaming
// the rows, and sets how it translates questions (Translate). The question
// embedder is the one the manifest names; when it is not available offline,
// Load still succeeds and BM25 search works, but vector and hybrid searches
// return an error that says why.
func Load(ctx context.Context, dir string, tr Translation) (*Index, error) {
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	cf, err := artifacts.OpenChunksAs(dir, m)
	if err != nil {
		return nil, err
	}
	defer cf.Close()
	if cf.Dims != m.Embedder.Dims {
		return nil, fmt.Errorf("snapshot %s: chunks.parquet holds %d-dim vectors, the manifest says %d", dir, cf.Dims, m.Embedder.Dims)
	}
	emb, noEmbed := queryEmbedder(m.Embedder)
	ix := newIndex(emb)
	ix.noEmbed, ix.embName, ix.floors = noEmbed, m.Embedder.Name, floorsOf(m)
	err = cf.Each(ctx, func(c schema.Chunk) error {
		ix.add(c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	ix.finish()
	ix.Translate(tr)
	return ix, nil
}

// New builds an Index from chunks in memory (tests and tools); emb embeds
// the questions and may be nil for BM25 only.
func New(emb Embedder, chunks ...schema.Chunk) *Index {
	ix := newIndex(emb)
	if emb == nil {
		ix.noEmbed = fmt.Errorf("no question embedder: only bm25 search is available")
	}
	for _, c := range chunks {
		ix.add(c)
	}
	ix.finish()
	return ix
}

// queryEmbedder returns the embedder that made the snapshot's vectors, or
// why it cannot be had offline.
func queryEmbedder(c artifacts.Component) (Embedder, error) {
	builtin := lexical.NewBuiltin(c.Dims)
	if c.Name == builtin.Name() {
		return builtin, nil
	}
	return nil, fmt.Errorf("the snapshot was embedded with %q (%d dims), which is not available offline (only %s is built in; bm25 search still works)",
		c.Name, c.Dims, builtin.Name())
}

func newIndex(emb Embedder) *Index {
	return &Index{docs: map[string]*docInfo{}, embedder: emb, stemmers: stemmers{}, vecWeight: vectorWeight(emb)}
}

func (ix *Index) add(c schema.Chunk) {
	e := entry{
		chunkID: c.ChunkID, docPath: c.DocPath, text: c.Text, header: c.ContextHeader,
		order: c.Order, sectionPath: c.SectionPath, lang: c.Lang, kind: c.Kind,
		beachID: c.BeachID, sourceLabel: c.SourceLabel,
		vec: c.Embedding,
	}
	e.tf, e.length = fields(ix.stemmers.of(c.Lang), c)
	var n2 float64
	for _, x := range e.vec {
		n2 += float64(x) * float64(x)
	}
	e.norm = math.Sqrt(n2)
	ix.entries = append(ix.entries, e)

	d := ix.docs[c.DocPath]
	if d == nil {
		d = &docInfo{lang: c.Lang, sections: map[string]bool{}}
		ix.docs[c.DocPath] = d
	}
	for _, s := range c.SectionPath {
		d.sections[s] = true
	}
}

// finish derives what needs every chunk: the beaches the snapshot knows.
func (ix *Index) finish() {
	seen := map[string]bool{}
	for _, e := range ix.entries {
		if e.beachID != "" && !seen[e.beachID] {
			seen[e.beachID] = true
			ix.beaches = append(ix.beaches, newBeach(e.beachID))
		}
	}
	sort.Slice(ix.beaches, func(i, j int) bool { return ix.beaches[i].id < ix.beaches[j].id })
}

// Len is the number of chunks in the index.
func (ix *Index) Len() int { return len(ix.entries) }

// Floor is the relevance floor of the index's snapshot in mode m: its
// manifest's, else the built-in one of its embedder (floorsOf); 0 when it
// has none.
func (ix *Index) Floor(m Mode) float64 {
	if ix.floors != nil {
		return ix.floors[m]
	}
	return DefaultFloor(ix.embName, m)
}

// HasDoc reports whether the snapshot holds a document at path.
func (ix *Index) HasDoc(path string) bool { return ix.docs[path] != nil }

// holds reports whether some chunk's text holds q's answer.
func (ix *Index) holds(q golden.Question) bool {
	for _, e := range ix.entries {
		if q.HoldsAnswer(e.text) {
			return true
		}
	}
	return false
}

// HasSection reports whether some chunk of the document at path has section
// in its section path.
func (ix *Index) HasSection(path, section string) bool {
	d := ix.docs[path]
	return d != nil && d.sections[section]
}

// DocLang is the language of the document at path ("" when absent).
func (ix *Index) DocLang(path string) schema.Lang {
	if d := ix.docs[path]; d != nil {
		return d.lang
	}
	return ""
}
