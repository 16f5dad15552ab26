package push

import (
	"fmt"
	"strings"
)

// part is a run of one version's chunks that travels in one request: a
// version of more chunks than a request takes is sent in parts, and each
// part says which it is, so the receiver knows when the version is whole.
type part struct {
	doc      *docVersion
	index    int // of count
	count    int
	from, to int // chunks[from:to]
	size     int // bytes of its JSON in a request, near enough
}

func (p part) chunks() int { return p.to - p.from }

// ref is the part as the journal records it: the version, its digest,
// its place and its chunks' hashes, so a part acknowledged once is known
// again on resume, and the audit of its version can list every hash.
func (p part) ref() partRef {
	d := p.doc.ctx
	return partRef{DocID: d.DocID, VersionID: d.VersionID, DocPath: d.DocPath, Digest: p.doc.digest,
		Index: p.index, Count: p.count, Chunks: len(p.doc.chunks), Hashes: p.doc.hashes[p.from:p.to]}
}

// partSlack is what a part's JSON holds besides its context and chunks
// (chunk_count, part, brackets and commas), over-estimated.
const partSlack = 96

// envelopeSlack is a request body's envelope, over-estimated.
const envelopeSlack = 256

// splitParts cuts a version into parts of at most maxChunks chunks and
// about maxBytes bytes. A chunk that alone is over maxBytes is an error
// naming it: no request could carry it.
func splitParts(d *docVersion, maxChunks, maxBytes int) ([]part, error) {
	ctxSize := d.ctxSize
	budget := maxBytes - envelopeSlack
	var parts []part
	cur := part{doc: d, size: ctxSize + partSlack}
	for i, c := range d.chunks {
		if cur.size+len(c)+1 > budget && cur.chunks() == 0 {
			return nil, fmt.Errorf("chunk %d of %s is %d bytes of JSON: over push.max_bytes (%d) alone", i, d.ctx.DocPath, len(c), maxBytes)
		}
		if cur.chunks() == maxChunks || cur.size+len(c)+1 > budget {
			parts = append(parts, cur)
			cur = part{doc: d, from: i, to: i, size: ctxSize + partSlack}
			if cur.size+len(c)+1 > budget {
				return nil, fmt.Errorf("chunk %d of %s is %d bytes of JSON: over push.max_bytes (%d) alone", i, d.ctx.DocPath, len(c), maxBytes)
			}
		}
		cur.to = i + 1
		cur.size += len(c) + 1
	}
	parts = append(parts, cur)
	for i := range parts {
		parts[i].index, parts[i].count = i, len(parts)
	}
	return parts, nil
}

// packer packs parts, in the order they come, into upsert requests of at
// most maxChunks chunks and maxBytes bytes: the same parts make the same
// requests, and so the same idempotency keys, on every run.
type packer struct {
	maxChunks, maxBytes int
	cur                 []part
	chunks, size        int
	emit                func([]part) error
}

func (p *packer) add(pt part) error {
	if len(p.cur) > 0 && (p.chunks+pt.chunks() > p.maxChunks || p.size+pt.size > p.maxBytes-envelopeSlack) {
		if err := p.flush(); err != nil {
			return err
		}
	}
	p.cur = append(p.cur, pt)
	p.chunks += pt.chunks()
	p.size += pt.size
	return nil
}

func (p *packer) flush() error {
	if len(p.cur) == 0 {
		return nil
	}
	parts := p.cur
	p.cur, p.chunks, p.size = nil, 0, 0
	return p.emit(parts)
}

// batch is one request: upsert parts or deletes, as the journal records
// them, with its body.
type batch struct {
	seq   int // 1-based, in the order the push makes them
	op    string
	parts []partRef
	dels  []deleteRef
	body  body
	task  string // the task an earlier run was given for it (resume): polled, not sent
	span  string // the W3C span id of its requests (the POST, its retries, its polls)
}

// what names a batch's documents for a message.
func (b *batch) what() string {
	var paths []string
	for _, p := range b.parts {
		paths = append(paths, p.DocPath)
	}
	for _, d := range b.dels {
		paths = append(paths, d.DocPath)
	}
	if len(paths) > 4 {
		paths = append(paths[:4], fmt.Sprintf("and %d more", len(paths)-4))
	}
	return fmt.Sprintf("%s of %s (request %d)", b.op, strings.Join(paths, ", "), b.seq)
}

// upsertBatch builds the request for parts.
func (e envelope) upsertBatch(parts []part) (body, error) {
	e.Operation = opUpsert
	u := upsertBody{envelope: e}
	for _, p := range parts {
		d := p.doc.ctx
		d.ChunkCount, d.Part, d.Chunks = len(p.doc.chunks), wirePart{Index: p.index, Count: p.count}, p.doc.chunks[p.from:p.to]
		u.Documents = append(u.Documents, d)
	}
	return encodeBody(u)
}

// deleteBatch builds the request for deletes.
func (e envelope) deleteBatch(dels []deleteRef) (body, error) {
	e.Operation = opDelete
	d := deleteBody{envelope: e}
	for _, x := range dels {
		d.Deletes = append(d.Deletes, wireDelete{DocID: x.DocID, VersionID: x.VersionID, Reason: x.Reason})
	}
	return encodeBody(d)
}
