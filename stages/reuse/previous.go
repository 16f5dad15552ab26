package reuse

import (
	"context"
	"errors"
	"fmt"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/text/lexical"
)

// Offer is what one document's previous rows offer: the rows, and once
// Indexed their headers and vectors by key, for the chunks of an edited
// document; taken whole when Doc says the document is unchanged.
type Offer struct {
	Headers map[string]Enrichment // by HeaderKey (see Indexed)
	Vectors map[string][]float32  // by VectorKey (see Indexed)
	IDs     []string              // the previous chunk ids, to count what the new run supersedes
	Version string                // the previous doc_version ("" when the document is new)
	Rows    []schema.Chunk        // the document's rows, in chunk order
	From    int64                 // the file's row of Rows[0]
	// Doc is the snapshot's account of the document, when the run may
	// take it whole (see Previous.TakeDocuments); nil otherwise.
	Doc  *Doc
	keys artifacts.CacheKeys
	dims int
	// noVectors: the rows were read without their vectors (see
	// Previous.WithoutVectors); Vectors holds their keys, each a nil vector.
	noVectors bool
}

// Previous is the last snapshot, read in step with the corpus: documents
// are asked for in corpus order, and only one document's rows are held.
type Previous struct {
	Dir      string
	Manifest artifacts.Manifest
	// file and cur are opened when rows are first asked for (open): an
	// unchanged night republishes without them, and parquet-go's view of
	// a file holds about 53 KB a row group (144 MB for the 2,709 of a
	// 100k-document snapshot).
	file      *artifacts.ChunkFile
	cur       *artifacts.Cursor
	ctx       context.Context
	openErr   error
	docs      *docs // nil: documents are not taken whole
	noVectors bool  // rows are read without their vectors (WithoutVectors)
	// lazy: rows are read lean for a run (LazyVectors), and filler reads
	// the rest of them for the documents made again (Fill).
	lazy   bool
	filler *artifacts.Filler
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
	return &Previous{Dir: dir, Manifest: m, ctx: ctx}, nil
}

// open opens the snapshot's chunks.parquet and its cursor, once. The file
// was checked against the manifest's size and hash, and the manifest's
// counts against what its run recorded (VerifyFiles): its rows are the
// manifest's unless the run that sealed it wrote another count.
func (p *Previous) open() error {
	if p.file != nil || p.openErr != nil {
		return p.openErr
	}
	f, err := artifacts.OpenChunksAs(p.Dir, p.Manifest)
	if err == nil && f.Rows != int64(p.Manifest.Counts.Chunks) {
		f.Close()
		err = fmt.Errorf("%s holds %d rows, its manifest says %d", artifacts.ChunksFile, f.Rows, p.Manifest.Counts.Chunks)
	}
	var cur *artifacts.Cursor
	if err == nil {
		switch {
		case p.lazy:
			cur = f.CursorLean(p.ctx, false)
		case p.noVectors:
			cur, err = f.CursorWithoutVectors(p.ctx)
		default:
			cur, err = f.Cursor(p.ctx)
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		p.openErr = err
		return err
	}
	p.file, p.cur = f, cur
	if p.lazy {
		p.filler = f.Filler()
	}
	return nil
}

// WithoutVectors has the rows read without their vectors, the most of
// their bytes, for a reader that only counts what is reused (--plan): an
// offer's Vectors then map each key to a nil vector. It must be called
// before the first ForDoc.
func (p *Previous) WithoutVectors(ctx context.Context) error {
	if p.file != nil {
		return errors.New("previous snapshot: rows read before WithoutVectors")
	}
	p.ctx, p.noVectors = ctx, true
	return nil
}

// LazyVectors has the rows read lean (artifacts.CursorLean: without their
// vectors, search text, header and the like), for a run that takes most
// documents whole: their rows reach the writer, which copies most row
// groups and reads the rest of the rows it encodes; Fill reads it for a
// document made again, whose chunks reuse its headers and vectors. It
// must be called before the first ForDoc.
func (p *Previous) LazyVectors(ctx context.Context) error {
	if p.file != nil {
		return errors.New("previous snapshot: rows read before LazyVectors")
	}
	p.ctx, p.lazy = ctx, true
	return nil
}

// Lazy reports whether rows are read lean for a run (LazyVectors): a
// document made again needs Fill.
func (p *Previous) Lazy() bool { return p != nil && p.lazy }

// Fill reads the whole of o's rows when they were read lean
// (LazyVectors), for a document made again. Documents are filled in corpus
// order, on the goroutine that asks ForDoc.
func (p *Previous) Fill(o *Offer) error {
	if p.filler == nil || len(o.Rows) == 0 || len(o.Rows[0].Embedding) > 0 {
		return nil
	}
	if err := p.filler.Fill(o.From, o.Rows); err != nil {
		return fmt.Errorf("previous snapshot %s: %w", p.Dir, err)
	}
	return nil
}

// TakeDocuments has ForDoc offer each document's account too (Offer.Doc),
// for a run that may take unchanged documents whole: the caller has checked
// the snapshot was made as it would make it. A snapshot without a documents
// list (an older one) is an error, and nothing is offered.
func (p *Previous) TakeDocuments() error {
	d, err := openDocs(p.Dir, p.Manifest)
	if err != nil {
		return fmt.Errorf("previous snapshot %s: documents not taken whole: %w", p.Dir, err)
	}
	p.docs = d
	return nil
}

// File is the previous snapshot's chunks.parquet, which its rows are read
// from: nil until a document's rows are first asked for (ForDoc).
func (p *Previous) File() *artifacts.ChunkFile { return p.file }

// TakesDocuments reports whether ForDoc offers documents whole (see
// TakeDocuments); false on a nil Previous.
func (p *Previous) TakesDocuments() bool { return p != nil && p.docs != nil }

// ForDoc returns what the previous snapshot offers for the document at
// path, with the ids of chunks of documents that are gone.
func (p *Previous) ForDoc(path string) (Offer, []string, error) {
	if err := p.open(); err != nil {
		return Offer{}, nil, err
	}
	gone, rows, err := p.cur.Until(path, p.Keep)
	if err != nil {
		return Offer{}, nil, err
	}
	o := Offer{Rows: rows, From: p.cur.Read() - int64(len(rows)), keys: p.Manifest.CacheKeys, dims: p.Manifest.Embedder.Dims, noVectors: p.noVectors}
	for _, row := range rows {
		o.IDs = append(o.IDs, row.ChunkID)
		o.Version = row.DocVersion
	}
	if p.docs != nil {
		if o.Doc, err = p.docs.forDoc(path); err != nil {
			return Offer{}, nil, fmt.Errorf("previous snapshot %s: %w", p.Dir, err)
		}
	}
	return o, gone, nil
}

// Indexed is o with its rows keyed, for a document made again: what a
// chunk of it finds of its header and vector. It touches only o, so the
// workers key their own documents. A fallback header is offered as
// what it is, with the reasons the model's answer failed, so an unchanged
// chunk costs no call whatever its answer was (the run decides whether to
// take it: --retry-rejected asks again); a vector must have the dimensions
// the manifest promised.
func (o Offer) Indexed() Offer {
	r := o
	r.Headers, r.Vectors = map[string]Enrichment{}, map[string][]float32{}
	keys := o.keys
	for _, row := range o.Rows {
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
		if keys.Vector != "" && o.dims > 0 && (o.noVectors || len(row.Embedding) == o.dims) {
			r.Vectors[VectorKey(keys.Vector, lexical.EmbeddedInput(row))] = row.Embedding
		}
	}
	return r
}

// Rest returns the ids of the chunks of every document after the last one
// asked for (of those Keep takes).
func (p *Previous) Rest() ([]string, error) {
	if err := p.open(); err != nil {
		return nil, err
	}
	return p.cur.Rest(p.Keep)
}

// Close releases the snapshot's file; it is safe on a nil Previous.
func (p *Previous) Close() {
	if p != nil {
		p.docs.close()
		if p.file != nil {
			p.filler.Close()
			p.cur.Close()
			p.file.Close()
		}
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
