package diff

import (
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
)

// documentCount is a snapshot's document count as every command gives it,
// the manifest's (artifacts.Manifest.EmptyDocuments: the documents in rows
// and those that yielded none), and of them, those without chunks. A
// snapshot written before the manifest listed them counts withRows, the
// documents its rows name, and none without.
func documentCount(m artifacts.Manifest, withRows int) (docs, empty int) {
	if m.EmptyDocuments == nil {
		return withRows, 0
	}
	return withRows + len(m.EmptyDocuments), len(m.EmptyDocuments)
}

// withEmptyDocuments adds to docs (the documents whose rows differ, by
// path) those that differ only in the manifests' lists of documents
// without chunks: one that came or went with no chunk is added or removed
// with 0 chunks, and one that had none and now has some (or the reverse),
// which the rows' merge took for added (removed), changed.
func withEmptyDocuments(docs []DocDiff, oldEmpty, newEmpty []string) []DocDiff {
	at := func(path string) int {
		return slices.IndexFunc(docs, func(d DocDiff) bool { return d.Path == path })
	}
	for _, p := range oldEmpty {
		switch i := at(p); {
		case slices.Contains(newEmpty, p):
		case i >= 0 && docs[i].Status == DocAdded:
			docs[i].Status = DocChanged // from no chunk to some
		default:
			docs = append(docs, DocDiff{Path: p, Status: DocRemoved, ChunkIDsAdded: []string{}, ChunkIDsRemoved: []string{}})
		}
	}
	for _, p := range newEmpty {
		switch i := at(p); {
		case slices.Contains(oldEmpty, p):
		case i >= 0 && docs[i].Status == DocRemoved:
			docs[i].Status = DocChanged // from some chunks to none
		default:
			docs = append(docs, DocDiff{Path: p, Status: DocAdded, ChunkIDsAdded: []string{}, ChunkIDsRemoved: []string{}})
		}
	}
	slices.SortStableFunc(docs, func(a, b DocDiff) int { return strings.Compare(a.Path, b.Path) })
	return docs
}
