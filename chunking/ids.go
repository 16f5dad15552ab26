package chunking

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"

	"github.com/google/uuid"
)

// idSpace is the UUID namespace of chunk and document ids (UUIDv5), fixed so
// ids are stable across runs and machines.
var idSpace = uuid.MustParse("6f0b8e2c-4a1d-5c3e-9b7f-2d8a1e4c6b50")

// DocID is the deterministic id of the document at a corpus-relative path
// in a tenant's source (schema 3): two sources of one tenant that both hold
// a README.md name two documents, as the pgvector table's key needs. The
// name is "doc", tenant, source label and path, NUL-separated.
func DocID(tenant, source, path string) string {
	return uuid.NewSHA1(idSpace, []byte("doc\x00"+tenant+"\x00"+source+"\x00"+path)).String()
}

// ChunkID is the deterministic id of a chunk: its tenant, source,
// document, content hash and the number of earlier chunks of the document
// with the same hash (so a repeated paragraph still gets its own id).
func ChunkID(tenant, source, docPath, contentHash string, repeat int) string {
	var ids identities
	return ids.chunkID(tenant, source, docPath, contentHash, repeat)
}

// identities gives the chunks of one document their content hashes and ids.
// It keeps the SHA-1 and the name buffer ChunkID would make afresh for every
// chunk, and counts the hashes already used. One per document: it is not
// safe for concurrent use.
type identities struct {
	tenant, source, path string
	seen                 map[string]int // content hashes used so far
	sha1                 hash.Hash
	name, text           []byte // reused: the id's name, the chunk's text to hash
}

func newIdentities(tenant, source, path string) *identities {
	return &identities{tenant: tenant, source: source, path: path, seen: map[string]int{}}
}

// next is the content hash and chunk id of the document's next chunk, of text.
func (ids *identities) next(text string) (contentHash, chunkID string) {
	ids.text = append(ids.text[:0], text...) // not []byte(text): a copy made per chunk
	sum := sha256.Sum256(ids.text)
	contentHash = hex.EncodeToString(sum[:])
	n := ids.seen[contentHash]
	ids.seen[contentHash]++
	return contentHash, ids.chunkID(ids.tenant, ids.source, ids.path, contentHash, n)
}

// chunkID is ChunkID: the name tenant\x00source\x00path\x00hash\x00repeat
// under idSpace.
func (ids *identities) chunkID(tenant, source, docPath, contentHash string, repeat int) string {
	if ids.sha1 == nil {
		ids.sha1 = sha1.New()
	}
	b := append(ids.name[:0], tenant...)
	b = append(append(b, 0), source...)
	b = append(append(b, 0), docPath...)
	b = append(append(b, 0), contentHash...)
	b = strconv.AppendInt(append(b, 0), int64(repeat), 10)
	ids.name = b
	return uuid.NewHash(ids.sha1, idSpace, b, 5).String() // what uuid.NewSHA1 does, with our hasher
}
