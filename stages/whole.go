package stages

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/corpus"
	"github.com/ocean-safety/ingest/corpus/include"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
)

// A night's cost grows with what changed, not with the corpus: a document
// whose input (its bytes and the files it includes) is the one the
// previous snapshot records, when that snapshot was made as this run makes
// one (sameMaking), is taken whole — its rows, diagnostics and share of the
// report — instead of being parsed, chunked, headed and embedded again. It
// goes through the same collect and the same writer as a document made
// again, in corpus order, so the snapshot has the same bytes as one built
// from scratch.

// sameMaking reports whether the snapshot of manifest m was made as this
// run makes one: the same ingest build and version, schema, config, header
// writer and embedder. All that shapes a document's rows besides its input.
func (r *run) sameMaking(m artifacts.Manifest) bool {
	return m.BuildID != "" && m.BuildID == reuse.BuildID() && m.ToolVersion == r.opt.ToolVersion &&
		m.SchemaVersion == artifacts.SchemaVersion && m.ConfigHash == r.cfg.Hash() && m.CacheKeys == r.keys
}

// takeDocuments has the previous snapshot offer its documents whole when
// it was made as this run makes one. One without a documents list (made
// by an older ingest) offers none: every document is made again.
func (r *run) takeDocuments() {
	if r.prev == nil || !r.sameMaking(r.prev.Manifest) {
		return
	}
	if err := r.prev.TakeDocuments(); err != nil {
		r.opt.Logger.Info("every document is made again", "reason", err)
	}
}

// whole is the document at path as the previous snapshot holds it, when
// its input is the one recorded there; false when it is to be made again.
// It runs on the document's worker: reading and hashing the file is the
// work a document taken whole costs.
func (r *run) whole(ctx context.Context, path string, prev reuse.Offer) (docResult, bool) {
	if ctx.Err() != nil {
		return docResult{}, false
	}
	sum, ok := r.unchanged(path, prev, true)
	if !ok {
		return docResult{}, false
	}
	d := prev.Doc
	res := docResult{path: path, raw: sum, prev: prev, diags: d.Diags, took: map[string]time.Duration{}, whole: true, enriched: true,
		doc:      schema.Document{Path: path, Version: d.Version, LangFrom: d.LangFrom, Draft: d.Status == artifacts.DocDraft},
		rejected: d.Status == artifacts.DocRejected, markup: d.Markup, bytes: d.Bytes, chunks: prev.Rows}
	for _, c := range prev.Rows {
		if c.HeaderSource == schema.HeaderExtractiveFallback {
			res.rejects = append(res.rejects, artifacts.Reject{Chunk: c.Key(), Reasons: c.HeaderRejects, Reused: true})
		}
	}
	res.calls.HeadersReused = len(prev.Rows)
	return res, true
}

// lazyVectors has the previous snapshot's rows read without their vectors
// when the run knows, before it reads them, which documents it takes
// whole (the input hashes of the check for an unchanged corpus): their
// rows go to the writer, which copies most of their row groups, and a
// document made again has its vectors read (reuseFor), as the writer
// reads those of the rows it encodes: not every vector of the snapshot.
func (r *run) lazyVectors(ctx context.Context) error {
	if r.inputs == nil || !r.prev.TakesDocuments() {
		return nil
	}
	return r.prev.LazyVectors(ctx)
}

// unchanged reports whether the previous snapshot gives the document at
// path whole: it holds the document's account and all its rows, takes it
// whole (takesWhole), and records the input hash the document has now. The
// hash is the one the check for an unchanged corpus read, else, when read
// says so, the file's read now; without either it is not (reuseFor asks
// before a worker reads the file: a document it cannot tell of has its
// vectors read). It returns the hash.
func (r *run) unchanged(path string, prev reuse.Offer, read bool) (string, bool) {
	d := prev.Doc
	if d == nil || d.Chunks != len(prev.Rows) || !r.takesWhole(d, prev.Rows) {
		return "", false
	}
	sum, ok := r.inputs.get(path)
	if !ok && read {
		sum, ok = r.parser.InputDigest(path), true
	}
	return sum, ok && sum == d.Input && sum != corpus.UnreadableDigest
}

// takesWhole reports whether a document the previous snapshot holds as d,
// with rows, may be taken whole if its input is unchanged: not when it is
// to be asked again (--retry-rejected and a rejected header), nor when an
// include could not be read (its input hash does not cover that file, which
// may be there now).
func (r *run) takesWhole(d *reuse.Doc, rows []schema.Chunk) bool {
	switch {
	case d.Status != artifacts.DocIngested && d.Status != artifacts.DocRejected && d.Status != artifacts.DocDraft:
		return false
	case slices.ContainsFunc(d.Diags, func(x schema.Diagnostic) bool { return x.Code == include.Unresolved }):
		return false
	case r.cfg.RetryRejected && slices.ContainsFunc(rows, func(c schema.Chunk) bool { return c.HeaderSource == schema.HeaderExtractiveFallback }):
		return false
	}
	return true
}

// inputSums keeps the input hashes the check for an unchanged corpus read,
// by position in the corpus, 32 bytes each (3.3 MB at 100,000 documents),
// so a document taken whole is not read and hashed twice.
type inputSums struct {
	paths []string
	sums  [][sha256.Size]byte
}

func newInputSums(paths []string) *inputSums {
	return &inputSums{paths: paths, sums: make([][sha256.Size]byte, len(paths))}
}

// set keeps the input hash of the i-th document; one that is not a SHA-256
// (an unreadable file's) is kept as none.
func (s *inputSums) set(i int, sum string) {
	if s == nil {
		return
	}
	_, _ = hex.Decode(s.sums[i][:], []byte(sum))
}

// get returns the input hash kept for the document at path.
func (s *inputSums) get(path string) (string, bool) {
	if s == nil {
		return "", false
	}
	i, ok := slices.BinarySearch(s.paths, path) // corpus order is byte order
	if !ok || s.sums[i] == [sha256.Size]byte{} {
		return "", false
	}
	return hex.EncodeToString(s.sums[i][:]), true
}
