package pgsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// SnapshotRef names the snapshot a sync reads.
type SnapshotRef struct {
	Dir               string `json:"dir"`
	Name              string `json:"name"` // artifacts.SnapshotName, or the chunks SHA-256 cut short
	CorpusFingerprint string `json:"corpus_fingerprint"`
	ChunksSHA256      string `json:"chunks_sha256"`
	ManifestSHA256    string `json:"manifest_sha256"`
	Embedder          string `json:"embedder"`
	Dims              int    `json:"dims"`
	Documents         int    `json:"documents"`
	Rows              int    `json:"rows"`
}

// snapshot is what a sync knows of its snapshot after one pass over its
// rows: their ids, and each document's version. The rows themselves are
// read again, a batch at a time, when they are loaded.
type snapshot struct {
	ref    SnapshotRef
	tenant uuid.UUID
	label  string
	ids    map[uuid.UUID]uuid.UUID // row id → doc id
	docs   map[uuid.UUID]uuid.UUID // doc id → version id
}

// openSnapshot verifies the snapshot in dir and reads its row ids for a
// tenant ("" takes the snapshot's own tenant_id, which must then be a UUID).
func openSnapshot(ctx context.Context, dir, tenant string) (*snapshot, error) {
	rep, err := artifacts.VerifyContext(ctx, dir)
	if err != nil {
		return nil, err
	}
	if failed := rep.Failed(); len(failed) > 0 {
		return nil, fmt.Errorf("snapshot %s does not verify (%s failed; ingest verify %s tells more): not syncing it",
			dir, strings.Join(failed, ", "), dir)
	}
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.Shard != nil {
		return nil, fmt.Errorf("snapshot %s is part %d of %d of a sharded run: syncing it would delete the other parts' rows; merge the parts (ingest merge) and sync the merge",
			dir, m.Shard.Index, m.Shard.Count)
	}
	s := &snapshot{ids: map[uuid.UUID]uuid.UUID{}, docs: map[uuid.UUID]uuid.UUID{}}
	s.ref, err = refOf(dir, m)
	if err != nil {
		return nil, err
	}
	if tenant != "" {
		if s.tenant, err = uuid.Parse(tenant); err != nil {
			return nil, fmt.Errorf("tenant %q is not a UUID", tenant)
		}
	}
	cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
	if err != nil {
		return nil, err
	}
	defer cf.Close()
	err = cf.Each(ctx, func(c schema.Chunk) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.scope(c, tenant != ""); err != nil {
			return err
		}
		r, err := newRow(s.tenant, c)
		if err != nil {
			return err
		}
		s.ids[r.id] = r.doc
		s.docs[r.doc] = r.version
		s.ref.Rows++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if s.ref.Rows == 0 {
		return nil, fmt.Errorf("snapshot %s has no chunks: nothing to sync (a sync of it would delete every row of its source)", dir)
	}
	s.ref.Documents = len(s.docs)
	return s, nil
}

// scope checks that c belongs to the sync's one tenant and source label,
// taking both from the first row when the command line names no tenant.
func (s *snapshot) scope(c schema.Chunk, tenantGiven bool) error {
	if s.ref.Rows == 0 {
		s.label = c.SourceLabel
		if !tenantGiven {
			t, err := uuid.Parse(c.TenantID)
			if err != nil {
				return fmt.Errorf("its tenant_id %q is not a UUID: name the tenant with --tenant UUID", c.TenantID)
			}
			s.tenant = t
		}
	}
	if c.SourceLabel != s.label {
		return fmt.Errorf("chunk %s: source_label %q after %q: a sync handles one source label", c.Key(), c.SourceLabel, s.label)
	}
	if c.TenantID == "" {
		return nil
	}
	if t, err := uuid.Parse(c.TenantID); err == nil && t != s.tenant {
		return fmt.Errorf("chunk %s: built for tenant %s, syncing for %s", c.Key(), t, s.tenant)
	}
	return nil
}

func refOf(dir string, m artifacts.Manifest) (SnapshotRef, error) {
	b, err := os.ReadFile(filepath.Join(dir, artifacts.ManifestFile))
	if err != nil {
		return SnapshotRef{}, err
	}
	sum := sha256.Sum256(b)
	chunks := m.Files[artifacts.ChunksFile].SHA256
	name, err := artifacts.SnapshotName(m)
	if err != nil {
		name = chunks[:min(12, len(chunks))]
	}
	return SnapshotRef{Dir: dir, Name: name, CorpusFingerprint: m.CorpusFingerprint, ChunksSHA256: chunks,
		ManifestSHA256: hex.EncodeToString(sum[:]), Embedder: m.Embedder.Name, Dims: m.Embedder.Dims}, nil
}

// rows calls fn for each batch of rows the table lacks, in file order.
func (s *snapshot) rows(ctx context.Context, have map[uuid.UUID]existing, fn func([]row) error) error {
	cf, err := artifacts.OpenChunks(filepath.Join(s.ref.Dir, artifacts.ChunksFile))
	if err != nil {
		return err
	}
	defer cf.Close()
	batch := make([]row, 0, batchRows)
	err = cf.Each(ctx, func(c schema.Chunk) error {
		if err := ctx.Err(); err != nil {
			return err
		}
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
