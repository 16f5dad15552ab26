package pgsync

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Plan is what a sync does, or would do: computed inside the sync's own
// transaction, so what it says is what happens.
type Plan struct {
	Target      string      `json:"target"` // the database, password removed
	Table       string      `json:"table"`
	Tenant      string      `json:"tenant"`
	SourceLabel string      `json:"source_label"`
	Load        Load        `json:"load"`
	Snapshot    SnapshotRef `json:"snapshot"`
	// Migrations are the versions --migrate applies (or applied); CreateTable
	// says the table does not exist yet.
	Migrations  []int       `json:"migrations"`
	CreateTable bool        `json:"create_table"`
	Last        *State      `json:"last_sync"` // nil when this tenant and label were never synced
	Documents   DocCounts   `json:"documents"`
	Rows        RowCounts   `json:"rows"`
	Index       IndexChange `json:"index"`

	migrate bool // the sync would migrate (--migrate): the text asks for it otherwise
}

// DocCounts are the snapshot's documents against the table's.
type DocCounts struct {
	Added       int `json:"added"`       // no row of the document yet
	Changed     int `json:"changed"`     // a new version replaces the old one's rows
	Regenerated int `json:"regenerated"` // same version, different rows (new embedder, header writer or chunking)
	Removed     int `json:"removed"`     // in the table, gone from the snapshot
	Unchanged   int `json:"unchanged"`
}

// RowCounts are the rows a sync inserts, deletes and keeps. Deletes are
// counted by why: the document is gone, the row is of an old version, or
// it is of the current version but its values changed.
type RowCounts struct {
	Insert            int `json:"insert"`
	Delete            int `json:"delete"`
	DeleteGone        int `json:"delete_gone"`
	DeleteOldVersion  int `json:"delete_old_version"`
	DeleteRegenerated int `json:"delete_regenerated"`
	Keep              int `json:"keep"`
}

// State is a kb_sync_state row: the snapshot last synced for a tenant and
// source label, and what that sync did.
type State struct {
	Snapshot          string    `json:"snapshot"`
	CorpusFingerprint string    `json:"corpus_fingerprint"`
	ChunksSHA256      string    `json:"chunks_sha256"`
	Embedder          string    `json:"embedder"`
	Dims              int       `json:"dims"`
	Rows              int       `json:"rows"`
	Inserted          int       `json:"inserted"`
	Deleted           int       `json:"deleted"`
	SyncedAt          time.Time `json:"synced_at"`
}

// existing is a row the table has for the sync's tenant and source label.
type existing struct{ doc, version uuid.UUID }

// readExisting reads the ids of the tenant's rows of one source label.
func readExisting(ctx context.Context, q querier, t Table, tenant uuid.UUID, label string) (map[uuid.UUID]existing, error) {
	rows, err := q.Query(ctx, fmt.Sprintf(`SELECT chunk_id, doc_id, version_id FROM %s WHERE tenant_id = $1 AND source_label = $2`,
		ident(t.Name)), pgUUID(tenant), label)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Name, err)
	}
	out := map[uuid.UUID]existing{}
	var id, doc, version pgtype.UUID
	_, err = pgx.ForEachRow(rows, []any{&id, &doc, &version}, func() error {
		out[id.Bytes] = existing{doc.Bytes, version.Bytes}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Name, err)
	}
	return out, nil
}

// diff compares the snapshot's rows with the table's: the counts of the
// plan, and the ids of the rows to delete.
func (s *snapshot) diff(have map[uuid.UUID]existing) (DocCounts, RowCounts, []uuid.UUID) {
	var rc RowCounts
	touched := map[uuid.UUID]bool{} // documents with a row to insert or delete
	for id, doc := range s.ids {
		if _, ok := have[id]; ok {
			rc.Keep++
		} else {
			rc.Insert++
			touched[doc] = true
		}
	}
	var del []uuid.UUID
	versions := map[uuid.UUID]map[uuid.UUID]bool{} // the table's documents and their versions
	for id, e := range have {
		if versions[e.doc] == nil {
			versions[e.doc] = map[uuid.UUID]bool{}
		}
		versions[e.doc][e.version] = true
		if _, ok := s.ids[id]; ok {
			continue
		}
		del = append(del, id)
		touched[e.doc] = true
		switch v, ok := s.docs[e.doc]; {
		case !ok:
			rc.DeleteGone++
		case v != e.version:
			rc.DeleteOldVersion++
		default:
			rc.DeleteRegenerated++
		}
	}
	rc.Delete = len(del)
	var dc DocCounts
	for doc, v := range s.docs {
		had := versions[doc]
		switch {
		case had == nil:
			dc.Added++
		case !touched[doc]:
			dc.Unchanged++
		case len(had) == 1 && had[v]:
			dc.Regenerated++
		default:
			dc.Changed++
		}
	}
	for doc := range versions {
		if _, ok := s.docs[doc]; !ok {
			dc.Removed++
		}
	}
	return dc, rc, del
}

// readState reads the last sync of a tenant and source label, nil if none.
func readState(ctx context.Context, q querier, t Table, tenant uuid.UUID, label string) (*State, error) {
	var st State
	err := q.QueryRow(ctx, `SELECT snapshot_name, corpus_fingerprint, chunks_sha256, embedder, dims, row_count, inserted, deleted, synced_at
		FROM `+stateTable+` WHERE table_name = $1 AND tenant_id = $2 AND source_label = $3`, t.Name, pgUUID(tenant), label).
		Scan(&st.Snapshot, &st.CorpusFingerprint, &st.ChunksSHA256, &st.Embedder, &st.Dims, &st.Rows, &st.Inserted, &st.Deleted, &st.SyncedAt)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", stateTable, err)
	}
	return &st, nil
}

// writeState records the sync just made.
func writeState(ctx context.Context, q querier, p *Plan, tenant uuid.UUID, inserted, deleted int64) error {
	s := p.Snapshot
	_, err := q.Exec(ctx, `INSERT INTO `+stateTable+` AS s (table_name, tenant_id, source_label, snapshot_name, corpus_fingerprint,
			chunks_sha256, embedder, dims, row_count, inserted, deleted)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (table_name, tenant_id, source_label) DO UPDATE SET snapshot_name = excluded.snapshot_name,
			corpus_fingerprint = excluded.corpus_fingerprint, chunks_sha256 = excluded.chunks_sha256,
			embedder = excluded.embedder, dims = excluded.dims, row_count = excluded.row_count,
			inserted = excluded.inserted, deleted = excluded.deleted, synced_at = now()`,
		p.Table, pgUUID(tenant), p.SourceLabel, s.Name, s.CorpusFingerprint, s.ChunksSHA256, s.Embedder, s.Dims, s.Rows,
		inserted, deleted)
	if err != nil {
		return fmt.Errorf("write %s: %w", stateTable, err)
	}
	return nil
}
