package stages

import (
	"context"
	"fmt"
	"github.com/ocean-safety/ingest/corpus/stamp"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/stages/reuse"
	"github.com/ocean-safety/ingest/text/searchtext"
	"github.com/ocean-safety/ingest/thresholds"
)

// docResult is one document after parse, chunk, normalise and header.
type docResult struct {
	path     string
	doc      schema.Document
	chunks   []schema.Chunk
	diags    []schema.Diagnostic
	rejected bool
	err      error
	took     map[string]time.Duration
	prev     reuse.Offer
	raw      string      // the input hash: the file's bytes and the files it includes
	stamp    stamp.Stamp // the file's, when raw is its bytes' alone (Parse)
	markup   map[string]int
	bytes    int  // the document's text's length
	whole    bool // taken whole from the previous snapshot (see whole.go)

	enriched   bool                            // headers already written (offline, on the document's worker)
	calls      artifacts.Calls                 // header calls made and headers reused
	rejects    []artifacts.Reject              // model answers that could not be used
	ungrounded []artifacts.UngroundedThreshold // model thresholds the text does not state
}

// parseChunk runs the parse and chunk stages on a worker.
func (r *run) parseChunk(ctx context.Context, path string) docResult {
	res := docResult{path: path, took: map[string]time.Duration{}}
	if ctx.Err() != nil {
		res.err = ctx.Err()
		return res
	}
	t := time.Now()
	p, err := r.parser.Parse(path)
	res.took[stageParse] = time.Since(t)
	if err != nil {
		res.err = err
		return res
	}
	res.doc, res.diags, res.rejected, res.raw, res.bytes, res.stamp = p.Doc, p.Diags, p.Rejected, p.RawSHA256, len(p.Doc.Text), p.Stamp
	if p.Rejected || p.Doc.Draft {
		return res
	}
	t = time.Now()
	chunks, diags := r.chunker.Chunk(p.Body)
	res.took[stageChunk] = time.Since(t)
	res.markup = p.Body.Markup
	res.diags = append(res.diags, diags...)
	res.chunks = chunks
	return res
}

// processDoc runs the per-document stages on a worker: parse, chunk and
// normalise, for a document the previous snapshot does not give whole.
func (r *run) processDoc(ctx context.Context, path string, ru reuse.Offer) docResult {
	if res, ok := r.whole(ctx, path, ru); ok {
		return res
	}
	res := r.parseChunk(ctx, path)
	res.prev = ru.Indexed()
	if res.err != nil || res.rejected {
		return res
	}
	t := time.Now()
	for i := range res.chunks {
		r.normaliser.Normalise(&res.chunks[i])
	}
	res.took[stageNormalise] = time.Since(t)
	if r.offlineHeaders && ctx.Err() == nil {
		// An offline header is CPU work like the rest of this document's:
		// written here, on the document's worker, not as one task a chunk.
		outs := make([]enriched, len(res.chunks))
		for i := range res.chunks {
			outs[i] = r.enrich(ctx, res.doc, res.prev, &res.chunks[i], nil)
		}
		res.mergeEnriched(outs)
		res.enriched = true
	}
	return res
}

// enriched is what enriching one chunk left to report.
type enriched struct {
	err         error
	calls       int  // model calls made, repairs included
	reused      bool // from the previous snapshot or the journal
	fromJournal bool
	reject      *artifacts.Reject
	ungrounded  []artifacts.UngroundedThreshold
	took        time.Duration
}

// mergeEnriched folds the chunks' enrichment into the document's result,
// once every chunk of it is done.
func (res *docResult) mergeEnriched(outs []enriched) {
	var took time.Duration
	for i, o := range outs {
		if o.err != nil && res.err == nil {
			res.err = fmt.Errorf("header %s: %w", res.chunks[i].Key(), o.err)
		}
		res.calls.HeaderCalls += o.calls
		if o.reused {
			res.calls.HeadersReused++
		}
		if o.fromJournal {
			res.calls.FromJournal++
		}
		if o.reject != nil {
			res.rejects = append(res.rejects, *o.reject)
		}
		res.ungrounded = append(res.ungrounded, o.ungrounded...)
		took += o.took
	}
	res.took[stageHeader] = took
}

// enrich gives c its header and fields: reused when the previous snapshot
// or the journal has them (see reuse.Resolver.Header), else written (and journaled),
// in a slot (see callSlot; nil: none needed, offline). It touches only c and
// its own result, so the chunks of a document can be enriched at once.
func (r *run) enrich(ctx context.Context, doc schema.Document, prev reuse.Offer, c *schema.Chunk, slot func(context.Context) (context.Context, func(), error)) enriched {
	t := time.Now()
	var out enriched
	h := r.reuse.Header(prev, doc, *c)
	e := h.Enrichment
	if h.From != reuse.Miss {
		out.reused, out.fromJournal = true, h.From == reuse.FromJournal
	} else {
		cctx, done := ctx, func() {}
		if slot != nil {
			var err error
			if cctx, done, err = slot(ctx); err != nil {
				out.err = err
				return out
			}
		}
		en, err := r.headers.Header(cctx, doc, *c)
		done()
		if err != nil {
			out.err = err
			return out
		}
		out.calls = en.Calls
		e = reuse.Enrichment{Header: en.Header, Source: en.Source, Fields: en.Fields}
		var ungrounded []schema.ProposedThreshold
		e.Thresholds, ungrounded = thresholds.Ground(*c, en.Thresholds)
		for _, p := range ungrounded {
			out.ungrounded = append(out.ungrounded, artifacts.UngroundedThreshold{Chunk: c.Key(), Subject: p.Subject, Comparator: p.Comparator, Value: p.Value, Unit: p.Unit})
		}
		if e.Fallback() {
			rej := artifacts.NewReject(c.Key(), en.RejectReasons, en.Reject)
			e.Reasons, e.Raw, e.RawBytes = rej.Reasons, rej.Raw, rej.RawBytes
		}
		// Journaled whatever the answer: a fallback costs its calls
		// like a success, and a resumed run must not pay them again.
		if err := r.reuse.PutHeader(h.Key, e); err != nil {
			out.err = err
			return out
		}
	}
	if e.Fallback() {
		out.reject = &artifacts.Reject{Chunk: c.Key(), Reasons: e.Reasons, Raw: e.Raw, RawBytes: e.RawBytes, Reused: out.reused}
		c.HeaderRejects = e.Reasons
	}
	c.ContextHeader, c.HeaderSource, c.Fields = e.Header, e.Source, e.Fields
	c.SearchText = searchtext.Of(*c) // what the embedder reads, once the header is known
	c.Thresholds = append(c.Thresholds, e.Thresholds...)
	out.took = time.Since(t)
	return out
}
