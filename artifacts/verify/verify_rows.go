package verify

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// rowChecks are the checks that read every row, in one pass.
type rowChecks struct {
	m                                          *artifacts.Manifest // nil: compare rows with each other only
	dims                                       int
	n                                          int
	last                                       schema.Chunk
	ids                                        map[[16]byte]struct{} // a hash of each id: 16 bytes a row, not the id
	got                                        Tally
	cRows, cDims, cOrder, cIDs, cHash, cCounts Check
	cUTF8                                      Check
}

func newRowChecks(m *artifacts.Manifest) rowChecks {
	r := rowChecks{m: m, ids: map[[16]byte]struct{}{},
		cRows: Check{Name: CheckRows}, cDims: Check{Name: CheckDims}, cOrder: Check{Name: CheckOrder},
		cIDs: Check{Name: CheckUniqueIDs}, cHash: Check{Name: CheckContentHash}, cCounts: Check{Name: CheckCounts},
		cUTF8: Check{Name: CheckUTF8}}
	if m != nil {
		r.dims = m.Embedder.Dims
	}
	return r
}

func (r *rowChecks) row(c schema.Chunk) {
	if r.n > 0 && !artifacts.RowBefore(r.last, c) {
		r.cOrder.problem("%s after %s", c.Key(), r.last.Key())
	}
	id := sha256.Sum256([]byte(c.ChunkID))
	if _, dup := r.ids[[16]byte(id[:16])]; dup {
		r.cIDs.problem("%s again at %s", c.ChunkID, c.Key())
	}
	r.ids[[16]byte(id[:16])] = struct{}{}
	if h := contentHash(c.Text); h != c.ContentHash {
		r.cHash.problem("%s: content_hash %s, its text hashes to %s", c.Key(), shortHash(c.ContentHash), shortHash(h))
	}
	if r.dims > 0 && len(c.Embedding) != r.dims {
		r.cDims.problem("%s: %d dimensions, want %d", c.Key(), len(c.Embedding), r.dims)
	}
	if field := invalidUTF8(c); field != "" {
		r.cUTF8.problem("%q: %s is not valid UTF-8", c.Key(), field)
	}
	r.got.Add(c)
	c.Embedding = nil // the order check keeps the last row, not its vector
	r.last = c
	r.n++
}

// finish compares what the rows add up to with the file's footer and the manifest.
func (r *rowChecks) finish(cf *artifacts.ChunkFile) {
	if int64(r.n) != cf.Rows {
		r.cRows.problem("%d rows read, the footer says %d", r.n, cf.Rows)
	}
	if r.m != nil {
		if want := r.m.Files[artifacts.ChunksFile].Rows; want != r.n {
			r.cRows.problem("%d rows, files.%s.rows says %d", r.n, artifacts.ChunksFile, want)
		}
		if want := r.m.Counts.Chunks; want != r.n {
			r.cRows.problem("%d rows, counts.chunks says %d", r.n, want)
		}
		if cf.Dims != r.m.Embedder.Dims {
			r.cDims.problem("%s metadata says %d dimensions, the manifest %d", artifacts.ChunksFile, cf.Dims, r.m.Embedder.Dims)
		}
		for _, p := range CountsDisagree(*r.m, r.got) {
			r.cCounts.problem("%s", p)
		}
	}
	r.cRows.Detail = strconv.Itoa(r.n) + " rows"
	r.cDims.Detail = strconv.Itoa(r.dims) + " dimensions"
	r.cOrder.Detail = "(doc_path, chunk_order)"
	r.cIDs.Detail = strconv.Itoa(len(r.ids)) + " distinct chunk ids"
	r.cHash.Detail = "SHA-256 of text"
	r.cCounts.Detail = fmt.Sprintf("%d documents, %d thresholds; per kind, lang, element", r.got.Documents, r.got.Thresholds)
	r.cUTF8.Detail = "every string column"
	for _, c := range []*Check{&r.cRows, &r.cDims, &r.cOrder, &r.cIDs, &r.cHash, &r.cCounts, &r.cUTF8} {
		settle(c)
	}
}

// skip marks every row check skipped: the rows could not all be read.
func (r *rowChecks) skip() {
	for _, c := range []*Check{&r.cRows, &r.cDims, &r.cOrder, &r.cIDs, &r.cHash, &r.cCounts, &r.cUTF8} {
		c.Status, c.Problems, c.More = CheckSkipped, nil, 0
	}
}

// invalidUTF8 names the first field of c that is not valid UTF-8, or "".
func invalidUTF8(c schema.Chunk) string {
	fields := []struct {
		name string
		v    []string
	}{
		{"chunk_id", []string{c.ChunkID}}, {"content_hash", []string{c.ContentHash}}, {"doc_id", []string{c.DocID}},
		{"doc_path", []string{c.DocPath}}, {"doc_version", []string{c.DocVersion}}, {"doc_title", []string{c.DocTitle}},
		{"source_url", []string{c.SourceURL}}, {"source_label", []string{c.SourceLabel}}, {"tenant_id", []string{c.TenantID}},
		{"lang", []string{string(c.Lang)}}, {"kind", []string{string(c.Kind)}}, {"element", []string{string(c.Element)}},
		{"beach_id", []string{c.BeachID}}, {"section_path", c.SectionPath}, {"text", []string{c.Text}},
		{"context_header", []string{c.ContextHeader}}, {"header_source", []string{c.HeaderSource}},
		{"hazard", []string{c.Fields.Hazard}}, {"place", []string{c.Fields.Place}}, {"season", []string{c.Fields.Season}},
		{"unsourced_claim", []string{c.Fields.UnsourcedClaim}},
	}
	for _, f := range fields {
		for _, v := range f.v {
			if !utf8.ValidString(v) {
				return f.name
			}
		}
	}
	for _, q := range c.Quantities {
		for _, v := range []string{q.Surface, q.Unit, q.Dimension, q.SIUnit} {
			if !utf8.ValidString(v) {
				return "quantities"
			}
		}
	}
	for _, t := range c.Thresholds {
		for _, v := range append([]string{t.Subject, t.Comparator, t.SIUnit, t.Surface, t.Sentence, t.Hazard, t.DocPath, t.ContentHash, string(t.Lang), t.Origin}, t.SectionPath...) {
			if !utf8.ValidString(v) {
				return "thresholds"
			}
		}
	}
	return ""
}

// shortHash is a hash cut to 12 characters for messages.
func shortHash(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
