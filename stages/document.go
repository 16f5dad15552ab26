package stages

import (
	"context"
	"fmt"
	"time"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
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
	prev     reuse
	raw      string // SHA-256 of the file's bytes

	rejects    []artifacts.Reject              // model answers that could not be used
	ungrounded []artifacts.UngroundedThreshold // model thresholds the text does not state
}

// processDoc runs the per-document stages on a worker.
func (r *run) processDoc(ctx context.Context, path string, ru reuse) docResult {
	res := docResult{path: path, took: map[string]time.Duration{}, prev: ru}
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
	res.doc, res.diags, res.rejected, res.raw = p.Doc, p.Diags, p.Rejected, p.RawSHA256
	if p.Rejected {
		return res
	}
	t = time.Now()
	chunks, diags := r.chunker.Chunk(p)
	res.took[stageChunk] = time.Since(t)
	res.diags = append(res.diags, diags...)
	res.chunks = chunks
	if r.plan != nil {
		return res
	}

	t = time.Now()
	for i := range chunks {
		r.normaliser.Normalise(&chunks[i])
	}
	res.took[stageNormalise] = time.Since(t)

	return res
}

// enriched is what enriching one chunk left to report.
type enriched struct {
	err        error
	reject     *artifacts.Reject
	ungrounded []artifacts.UngroundedThreshold
	took       time.Duration
}

// mergeEnriched folds the chunks' enrichment into the document's result,
// once every chunk of it is done.
func (res *docResult) mergeEnriched(outs []enriched) {
	var took time.Duration
	for i, o := range outs {
		if o.err != nil && res.err == nil {
			res.err = fmt.Errorf("header %s: %w", res.chunks[i].Key(), o.err)
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
// or the journal has them under the same key, else written (and journaled).
// It touches only c, so the chunks of a document can be enriched at once.
func (r *run) enrich(ctx context.Context, doc schema.Document, prev reuse, c *schema.Chunk) enriched {
	t := time.Now()
	var out enriched
	key := headerKey(r.keys.Header, doc.Title, *c)
	e, ok := prev.headers[key]
	if ok {
		r.calls.headersReused.Add(1)
	} else if e, ok = r.journalHeader(key); ok {
		r.calls.headersReused.Add(1)
		r.calls.fromJournal.Add(1)
	} else {
		en, err := r.headers.Header(ctx, doc, *c)
		if err != nil {
			out.err = err
			return out
		}
		r.calls.headerCalls.Add(int64(en.Calls))
		e = headerEntry{Header: en.Header, Source: en.Source, Fields: en.Fields}
		e.Thresholds, out.ungrounded = ground(*c, en.Thresholds, nil)
		if en.Reject != "" {
			out.reject = &artifacts.Reject{Chunk: c.Key(), Raw: en.Reject}
		}
		if en.Source != schema.HeaderExtractiveFallback { // a fallback is never cached as success
			if err := r.journalPutHeader(key, e); err != nil {
				out.err = err
				return out
			}
		}
	}
	c.ContextHeader, c.HeaderSource, c.Fields = e.Header, e.Source, e.Fields
	c.Thresholds = append(c.Thresholds, e.Thresholds...)
	out.took = time.Since(t)
	return out
}

// collect takes a document's result in corpus order and returns the chunks
// to embed. It runs on the docs stream's callback goroutine, in order.
func (r *run) collect(res docResult, total int) []schema.Chunk {
	if res.err != nil {
		r.fail(res.err)
		return nil
	}
	r.statsMu.Lock()
	for s, d := range res.took {
		r.stats[s].Items++
		r.stats[s].Seconds += d.Seconds()
	}
	r.statsMu.Unlock()
	for _, d := range res.diags {
		r.diags = append(r.diags, d)
		if d.Severity != schema.SeverityInfo {
			r.problems++
		}
		r.rep.Diagnostic(d)
	}
	r.docsDone++
	r.rep.Progress(StageEnriched, r.docsDone, total)
	inputLine(r.input, res.path, res.raw)
	r.superseded(res)
	if res.rejected {
		r.counts.Rejected++
		r.audit.rejected(res)
		return nil
	}
	if r.cfg.Strict && r.hasProblems() {
		r.fail(ErrStrict)
		return nil
	}
	r.counts.Documents++
	fmt.Fprintf(r.fingerprint, "%s\x00%s\n", res.path, res.doc.Version)
	if r.plan != nil {
		r.planned(res)
		return nil
	}
	r.audit.ingested(res)
	r.models.Rejects = append(r.models.Rejects, res.rejects...)
	r.models.Ungrounded = append(r.models.Ungrounded, res.ungrounded...)
	for _, c := range res.chunks {
		r.thresholds = append(r.thresholds, c.Thresholds...)
	}
	return res.chunks
}

// superseded counts the previous chunks of this document that the new
// snapshot no longer has.
func (r *run) superseded(res docResult) {
	if len(res.prev.ids) == 0 {
		return // a first run, or a new document: nothing to supersede
	}
	kept := map[string]bool{}
	for _, c := range res.chunks {
		kept[c.ChunkID] = true
	}
	var gone []string
	for _, id := range res.prev.ids {
		if !kept[id] || res.rejected {
			gone = append(gone, id)
		}
	}
	r.supersede(res.path, gone)
}
