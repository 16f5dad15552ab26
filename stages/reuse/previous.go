package reuse

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Offer is what one document's previous rows offer.
type Offer struct {
	Headers map[string]Enrichment // by HeaderKey
	Vectors map[string][]float32  // by VectorKey
	IDs     []string              // the previous chunk ids, to count what the new run supersedes
	Version string                // the previous doc_version ("" when the document is new)
}

// Previous is the last snapshot, read in step with the corpus: documents
// are asked for in corpus order, and only one document's rows are held.
type Previous struct {
	Dir      string
	Manifest artifacts.Manifest
	file     *artifacts.ChunkFile
	cur      *artifacts.Cursor
	// Keep, when set, chooses the documents a gone document counts for: a
	// shard's run keeps its own, and the others' rows are only passed over.
	Keep func(path string) bool
}

// OpenPrevious opens the snapshot at dir for reuse after checking it is
// whole: a readable manifest of this schema version, and every file it
// lists of the size and hash it records (verify.VerifyFiles). A snapshot
// that fails is not trusted; the problem comes back as the error, for the
// report.
func OpenPrevious(ctx context.Context, dir string) (*Previous, error) {
	m, err := verify.VerifyFiles(dir)
	if err != nil {
		return nil, err
	}
	if !artifacts.ReadsSchema(m.SchemaVersion) {
		return nil, fmt.Errorf("schema version %q, want %q", m.SchemaVersion, artifacts.SchemaVersion)
	}
	f, err := artifacts.OpenChunksAs(dir, m)
	if err != nil {
		return nil, err
	}
	if f.Rows != int64(m.Counts.Chunks) {
		f.Close()
		return nil, fmt.Errorf("%s holds %d rows, its manifest says %d", artifacts.ChunksFile, f.Rows, m.Counts.Chunks)
	}
	cur, err := f.Cursor(ctx)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Previous{Dir: dir, Manifest: m, file: f, cur: cur}, nil
}

// ForDoc returns what the previous snapshot offers for the document at
// path, with the ids of chunks of documents that are gone.
func (p *Previous) ForDoc(path string) (Offer, []string, error) {
	gone, rows, err := p.cur.Until(path, p.Keep)
	if err != nil {
		return Offer{}, nil, err
	}
	return p.index(rows), gone, nil
}

// index keys a document's previous rows. A fallback header is offered as
// what it is, with the reasons the model's answer failed, so an unchanged
// chunk costs no call whatever its answer was (the run decides whether to
// take it: --retry-rejected asks again); a vector must have the dimensions
// the manifest promised.
func (p *Previous) index(rows []schema.Chunk) Offer {
	r := Offer{Headers: map[string]Enrichment{}, Vectors: map[string][]float32{}}
	keys := p.Manifest.CacheKeys
	for _, row := range rows {
		r.IDs = append(r.IDs, row.ChunkID)
		r.Version = row.DocVersion
		if keys.Header != "" && row.ContextHeader != "" {
			var model []schema.Threshold
			for _, t := range row.Thresholds {
				if t.Origin == "model" {
					model = append(model, t)
				}
			}
			r.Headers[HeaderKey(keys.Header, row.DocTitle, row)] = Enrichment{Header: row.ContextHeader, Source: row.HeaderSource,
				Fields: row.Fields, Thresholds: model, Reasons: row.HeaderRejects}
		}
		if keys.Vector != "" && len(row.Embedding) == p.Manifest.Embedder.Dims && len(row.Embedding) > 0 {
			r.Vectors[VectorKey(keys.Vector, lexical.EmbeddedInput(row))] = row.Embedding
		}
	}
	return r
}

// Rest returns the ids of the chunks of every document after the last one
// asked for (of those Keep takes).
func (p *Previous) Rest() ([]string, error) { return p.cur.Rest(p.Keep) }

// Close releases the snapshot's file; it is safe on a nil Previous.
func (p *Previous) Close() {
	if p != nil {
		p.cur.Close()
		p.file.Close()
	}
}

// Name is the snapshot's folder name in a publish layout, or "" when its
// manifest cannot give one.
func (p *Previous) Name() string {
	name, err := artifacts.SnapshotName(p.Manifest)
	if err != nil {
		return ""
	}
	return name
}
