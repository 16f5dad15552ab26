package pgsync

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
)

// SnapshotRef names the snapshot a sync reads.
type SnapshotRef = deliver.SnapshotRef

// snapshot is what a sync knows of its snapshot after one pass over its
// rows: their ids, and each document's version. The rows themselves are
// read again, a batch at a time, when they are loaded.
type snapshot struct {
	*deliver.Snapshot
	ref    SnapshotRef
	tenant uuid.UUID
	label  string
	ids    map[uuid.UUID]uuid.UUID // row id → doc id
	docs   map[uuid.UUID]uuid.UUID // doc id → version id
}

// readSnapshot reads the row ids of a snapshot opened for delivery
// (deliver.Open: verified, whole, one tenant and source label), in one
// pass of its own: the rows themselves are read again when loaded.
func readSnapshot(ctx context.Context, ds *deliver.Snapshot) (*snapshot, error) {
	s := &snapshot{Snapshot: ds, ref: ds.Ref, tenant: ds.Tenant, label: ds.Label,
		ids: map[uuid.UUID]uuid.UUID{}, docs: map[uuid.UUID]uuid.UUID{}}
	err := ds.Each(ctx, func(c schema.Chunk) error {
		r, err := newRow(s.tenant, c)
		if err != nil {
			return err
		}
		s.ids[r.id] = r.doc
		s.docs[r.doc] = r.version
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", ds.Ref.Dir, err)
	}
	return s, nil
}

// rows calls fn for each batch of rows the table lacks, in file order.
func (s *snapshot) rows(ctx context.Context, have map[uuid.UUID]existing, fn func([]row) error) error {
	batch := make([]row, 0, batchRows)
	err := s.Each(ctx, func(c schema.Chunk) error {
		r, err := newRow(s.tenant, c)
		if err != nil {
			return err
		}
		if _, ok := have[r.id]; ok {
			return nil
		}
		if _, ok := s.ids[r.id]; !ok {
			return fmt.Errorf("chunk %s: not the row read before: the snapshot changed during the sync", c.Key())
		}
		batch = append(batch, r)
		if len(batch) == batchRows {
			err := fn(batch)
			batch = batch[:0]
			return err
		}
		return nil
	})
	if err != nil || len(batch) == 0 {
		return err
	}
	return fn(batch)
}
