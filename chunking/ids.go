package chunking

import (
	"strconv"

	"github.com/google/uuid"
)

// idSpace is the UUID namespace of chunk and document ids (UUIDv5), fixed so
// ids are stable across runs and machines.
var idSpace = uuid.MustParse("6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50")

// DocID is the deterministic id of the document at a corpus-relative path.
func DocID(path string) string { return uuid.NewSHA1(idSpace, []byte(path)).String() }

// ChunkID is the deterministic id of a chunk: its tenant, document, content
// hash and the number of earlier chunks of the document with the same hash
// (so a repeated paragraph still gets its own id).
func ChunkID(tenant, docPath, contentHash string, repeat int) string {
	return uuid.NewSHA1(idSpace, []byte(tenant+"\x00"+docPath+"\x00"+contentHash+"\x00"+strconv.Itoa(repeat))).String()
}
