package pgsync

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/pgvector/pgvector-go"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
)

// VersionID is the version_id of a document version (deliver.VersionID:
// every destination names a version alike).
func VersionID(docVersion string) uuid.UUID { return deliver.VersionID(docVersion) }

// row is one chunk as the table holds it.
type row struct {
	id, doc, version uuid.UUID
	chunk            uuid.UUID // the snapshot's chunk_id
	c                schema.Chunk
}

// newRow maps a snapshot chunk to its row for a tenant. The row's id is
// the UUIDv5 of the tenant and of every value the row holds: the same row
// has the same id in every sync, and a row whose values change (a new
// version, a new embedder or header writer, a new position) is a new row.
// Nothing is ever updated, which is what lets the application role go
// without UPDATE.
func newRow(tenant uuid.UUID, c schema.Chunk) (row, error) {
	doc, err := uuid.Parse(c.DocID)
	if err != nil {
		return row{}, fmt.Errorf("chunk %s: doc_id %q is not a UUID", c.Key(), c.DocID)
	}
	if c.SectionPath == nil {
		c.SectionPath = []string{} // text[] NOT NULL: an empty path is '{}', not NULL
	}
	chunk, err := uuid.Parse(c.ChunkID)
	if err != nil {
		return row{}, fmt.Errorf("chunk %s: chunk_id %q is not a UUID", c.Key(), c.ChunkID)
	}
	r := row{doc: doc, version: VersionID(c.DocVersion), chunk: chunk, c: c}
	r.id = uuid.NewSHA1(deliver.IDSpace, append(tenant[:], r.digest()...))
	return r, nil
}

// digest is the SHA-256 of the row's values, each length-prefixed so no
// two rows encode alike.
func (r row) digest() []byte {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	put := func(s string) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	c := r.c
	h.Write(r.doc[:])
	h.Write(r.version[:])
	h.Write(r.chunk[:])
	for _, s := range []string{string(c.Element), c.ContentHash, string(c.Kind), string(c.Lang), c.SourceLabel,
		c.BeachID, c.ContextHeader, c.DocPath, c.DocTitle, c.SourceURL, fmt.Sprint(c.Order), fmt.Sprint(c.Safety), c.SearchText} {
		put(s)
	}
	put(fmt.Sprint(len(c.SectionPath)))
	for _, s := range c.SectionPath {
		put(s)
	}
	put(fmt.Sprint(len(c.Embedding)))
	var b [4]byte
	for _, x := range c.Embedding {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		h.Write(b[:])
	}
	return h.Sum(nil)
}

// values are the row's values in the order of Table.insertColumns.
func (r row) values(tenant uuid.UUID) []any {
	c := r.c
	var beach, search any
	if c.BeachID != "" {
		beach = c.BeachID
	}
	if c.SearchText != "" { // "" from a snapshot before schema 5: null, and search_tsv reads the header and text
		search = c.SearchText
	}
	return []any{pgUUID(r.id), pgUUID(tenant), pgUUID(r.doc), pgUUID(r.version), string(c.Element), c.Text,
		pgvector.NewVector(c.Embedding), int32(c.Order), string(c.Kind), string(c.Lang), c.SourceLabel, beach,
		c.SectionPath, c.ContextHeader, c.ContentHash, c.Safety, c.DocPath, c.DocTitle, c.SourceURL, pgUUID(r.chunk), search}
}

func pgUUID(u uuid.UUID) pgtype.UUID { return pgtype.UUID{Bytes: u, Valid: true} }
