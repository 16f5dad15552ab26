package stages

import (
	"crypto/sha256"
	"fmt"
	"hash"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/diagnostics"
	"github.com/ocean-safety/ingest/chunking"
	"github.com/ocean-safety/ingest/schema"
	"github.com/ocean-safety/ingest/thresholds"
)

// docTally is what a run counts of its documents. collect fills it, on the
// enrich stream's callbacks, in corpus order.
type docTally struct {
	counts      artifacts.Counts    // Documents, Rejected and Drafts
	empty       []string            // the documents that yielded no chunk (Manifest.EmptyDocuments), in corpus order
	langFrom    map[string]int      // documents by how their language was decided
	markup      map[string]int      // markup removed from the documents, by kind
	diags       *diagnostics.Writer // every diagnostic, to diagnostics.jsonl as it is found: the run's own, then the documents' in corpus order
	problems    int                 // diagnostics that are errors or warnings: what --strict refuses
	done        int
	fingerprint hash.Hash             // documents and versions: the corpus fingerprint
	input       hash.Hash             // file bytes: the input fingerprint
	thresholds  thresholds.Proposal   // the proposal's thresholds, bounded by their values
	models      artifacts.ModelReport // rejects and ungrounded thresholds
	calls       artifacts.Calls       // header calls, and headers and vectors reused
	stats       map[string]*artifacts.StageStat
}

// newDocTally is the tally of a run whose own diagnostics are setup, and
// whose diagnostics go to diags (setup's first).
func newDocTally(setup []schema.Diagnostic, diags *diagnostics.Writer) docTally {
	t := docTally{fingerprint: sha256.New(), input: sha256.New(), stats: map[string]*artifacts.StageStat{}, langFrom: map[string]int{}, markup: map[string]int{}, diags: diags}
	for _, s := range stageOrder {
		t.stats[s] = &artifacts.StageStat{Name: s}
	}
	for _, d := range setup {
		t.count(d)
		t.diags.Write(d) // an error sticks: the writer's Close fails the run
	}
	return t
}

// count counts d among what --strict refuses.
func (t *docTally) count(d schema.Diagnostic) {
	if d.Severity != schema.SeverityInfo && !d.Ignored {
		t.problems++
	}
}

// rowTally is what a run counts of the rows it writes, on the batch stream's
// callbacks.
type rowTally struct {
	counts       artifacts.Counts // Chunks and the counts by kind, language and element
	sizes        schema.SizeTally // chunk sizes in the budget's unit
	embed, write artifacts.StageStat
	embedCalls   int
}

// tally is both, merged once every stream has finished.
type tally struct {
	docTally
	rows rowTally
}

// Counts merges the documents' and the rows' counts.
func (t tally) Counts(skipped, excluded int) artifacts.Counts {
	c := t.rows.counts
	c.Documents, c.Rejected, c.Drafts, c.Skipped, c.Excluded = t.counts.Documents, t.counts.Rejected, t.counts.Drafts, skipped, excluded
	if c.ByKind == nil { // no chunks: write {} rather than null
		c.ByKind, c.ByLang, c.ByElement = map[string]int{}, map[string]int{}, map[string]int{}
	}
	return c
}

// Stages is the per-stage account, in pipeline order.
func (t tally) Stages() []artifacts.StageStat {
	var out []artifacts.StageStat
	for _, s := range stageOrder {
		st := *t.stats[s]
		switch s {
		case stageEmbed:
			st.Items, st.Seconds = t.rows.embed.Items, t.rows.embed.Seconds
		case stageWrite:
			st.Items, st.Seconds = t.rows.write.Items, t.rows.write.Seconds
		}
		out = append(out, st)
	}
	return out
}

// collect takes a document's result in corpus order, counts it, and
// returns the chunks to embed. It runs on the enrich stream's callbacks.
func (r *run) collect(t *docTally, res docResult, total int) []schema.Chunk {
	if res.err != nil {
		r.errs.set(res.err)
		return nil
	}
	for s, d := range res.took {
		t.stats[s].Items++
		t.stats[s].Seconds += d.Seconds()
	}
	marked := r.cfg.Diagnostics.Mark(res.diags)
	for _, d := range marked {
		t.count(d)
		r.rep.Diagnostic(d)
	}
	if err := t.diags.WriteDocument(marked); err != nil {
		r.errs.set(err)
		return nil
	}
	t.done++
	r.rep.Progress(StageEnriched, t.done, total)
	InputLine(t.input, res.path, res.raw)
	if !r.stampsAll {
		r.stampsOut.Add(res.path, res.stamp, res.raw)
	}
	r.superseded(res)
	pd := artifacts.PartDoc{Path: res.path, Input: res.raw, Version: res.doc.Version, Diagnostics: len(res.diags)}
	if res.rejected {
		t.counts.Rejected++
		r.audit.Rejected(r.docID(res.path), res.doc.Version, res.diags)
		pd.Status = artifacts.DocRejected
		r.partDoc(pd)
		return nil
	}
	if res.doc.Draft {
		t.counts.Drafts++
		pd.Status = artifacts.DocDraft
		r.partDoc(pd)
		return nil
	}
	t.langFrom[res.doc.LangFrom]++
	for k, n := range res.markup {
		t.markup[k] += n
	}
	if r.cfg.Strict && t.problems > 0 {
		r.errs.set(ErrStrict)
		return nil
	}
	t.counts.Documents++
	if len(res.chunks) == 0 {
		t.empty = append(t.empty, res.path)
	}
	fmt.Fprintf(t.fingerprint, "%s\x00%s\n", res.path, res.doc.Version)
	r.audit.Ingested(r.docID(res.path), res.doc.Version, res.prev.Version)
	t.calls.HeaderCalls += res.calls.HeaderCalls
	t.calls.HeadersReused += res.calls.HeadersReused
	t.calls.FromJournal += res.calls.FromJournal
	t.models.AddRejects(res.rejects...)
	t.models.AddUngrounded(res.ungrounded...)
	pd.Status, pd.Rejects, pd.Ungrounded, pd.Chunks = artifacts.DocIngested, len(res.rejects), len(res.ungrounded), len(res.chunks)
	pd.LangFrom, pd.Markup, pd.Bytes = res.doc.LangFrom, res.markup, res.bytes
	r.partDoc(pd)
	for _, c := range res.chunks {
		for _, th := range c.Thresholds {
			t.thresholds.Add(th)
		}
	}
	return res.chunks
}

// superseded records the previous chunks of this document that the new
// snapshot no longer has.
func (r *run) superseded(res docResult) {
	if len(res.prev.IDs) == 0 {
		return // a first run, or a new document: nothing to supersede
	}
	kept := map[string]bool{}
	for _, c := range res.chunks {
		kept[c.ChunkID] = true
	}
	var gone []string
	for _, id := range res.prev.IDs {
		if !kept[id] || res.rejected {
			gone = append(gone, id)
		}
	}
	r.audit.Supersede(r.docID(res.path), gone)
}

// partDoc writes a document's line of the snapshot's documents list.
func (r *run) partDoc(d artifacts.PartDoc) { r.partDocs.Write(d) }

// docID is the id of the document at path in this run's tenant and source.
func (r *run) docID(path string) string {
	return chunking.DocID(r.cfg.TenantID, r.parser.SourceLabel(), path)
}
