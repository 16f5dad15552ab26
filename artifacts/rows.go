package artifacts

import "github.com/ocean-safety/ingest/schema"

// RowBefore is the order of a snapshot's rows: by document path, then by
// chunk order within the document.
func RowBefore(a, b schema.Chunk) bool {
	if a.DocPath != b.DocPath {
		return a.DocPath < b.DocPath
	}
	return a.Order < b.Order
}
