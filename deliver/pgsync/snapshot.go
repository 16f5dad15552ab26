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

// openSnapshot opens the snapshot in dir for delivery (deliver.Open:
// verified, whole, one tenant and source label) and reads its row ids for
// a tenant ("" takes the snapshot's own tenant_id, which must then be a UUID).
func openSnapshot(ctx context.Context, dir, tenant string) (*snapshot, error) {
	s := &snapshot{ids: map[uuid.UUID]uuid.UUID{}, docs: map[uuid.UUID]uuid.UUID{}}
	var t uuid.UUID
	if tenant != "" {
		var err error
		if t, err = uuid.Parse(tenant); err != nil {
			return nil, fmt.Errorf("tenant %q is not a UUID", tenant)
		}
	}
	ds, err := deliver.Open(ctx, dir, tenant, func(c schema.Chunk) error {
		if tenant == "" && len(s.ids) == 0 {
			t, _ = uuid.Parse(c.TenantID) // Open has checked it is one
		}
		r, err := newRow(t, c)
		if err != nil {
			return err
		}
		s.ids[r.id] = r.doc
		s.docs[r.doc] = r.version
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.Snapshot, s.ref, s.tenant, s.label = ds, ds.Ref, ds.Tenant, ds.Label
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
