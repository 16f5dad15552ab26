package deliver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/artifacts/verify"
	"github.com/ocean-safety/ingest/schema"
)

// IDSpace is the UUID namespace of the ids destinations derive (UUIDv5),
// fixed so two deliveries of the same snapshot name the same versions and
// rows on any machine.
var IDSpace = uuid.MustParse("3b1f6c8e-2d4a-5e7b-9c1d-8a6f4e2b0c57")

// VersionID is the version_id of a document version: the UUIDv5 of its
// doc_version (the SHA-256 of its text), so a version is named by content.
func VersionID(docVersion string) uuid.UUID {
	return uuid.NewSHA1(IDSpace, []byte("doc_version\x00"+docVersion))
}

// SnapshotRef names the snapshot a delivery reads.
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

// Snapshot is a snapshot opened for delivery: checked, and scoped to one
// tenant and source label.
type Snapshot struct {
	Ref    SnapshotRef
	Tenant uuid.UUID
	Label  string
	// Manifest is the snapshot's manifest, for what a destination records
	// of the models that made it.
	Manifest artifacts.Manifest
}

// Open verifies the snapshot in dir, refuses a part of a sharded run, and
// reads its rows once for a tenant ("" takes the snapshot's own tenant_id,
// which must then be a UUID), checking every row is of that tenant and of
// the first row's source label, and calling fn (if not nil) with each. A
// snapshot with no row is an error: delivering it would delete everything
// its source has.
func Open(ctx context.Context, dir, tenant string, fn func(schema.Chunk) error) (*Snapshot, error) {
	if err := checkIDScheme(dir); err != nil {
		return nil, err
	}
	rep, err := verify.VerifyContext(ctx, dir)
	if err != nil {
		return nil, err
	}
	if failed := rep.Failed(); len(failed) > 0 {
		return nil, fmt.Errorf("snapshot %s does not verify (%s failed; ingest verify %s tells more): not delivering it",
			dir, strings.Join(failed, ", "), dir)
	}
	m, err := artifacts.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if m.Shard != nil {
		return nil, fmt.Errorf("snapshot %s is part %d of %d of a sharded run: delivering it would delete the other parts' documents; merge the parts (ingest merge) and deliver the merge",
			dir, m.Shard.Index, m.Shard.Count)
	}
	s := &Snapshot{Manifest: m}
	if s.Ref, err = refOf(dir, m); err != nil {
		return nil, err
	}
	if tenant != "" {
		if s.Tenant, err = uuid.Parse(tenant); err != nil {
			return nil, fmt.Errorf("tenant %q is not a UUID", tenant)
		}
	}
	lastDoc := ""
	err = s.Each(ctx, func(c schema.Chunk) error {
		if err := s.scope(c, tenant != ""); err != nil {
			return err
		}
		if c.DocID != lastDoc {
			s.Ref.Documents++
			lastDoc = c.DocID
		}
		s.Ref.Rows++
		if fn != nil {
			return fn(c)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", dir, err)
	}
	if s.Ref.Rows == 0 {
		return nil, fmt.Errorf("snapshot %s has no chunks: nothing to deliver (delivering it would delete every document of its source)", dir)
	}
	return s, nil
}

// Each calls fn for every row of the snapshot, in file order
// ((doc_path, chunk_order)), stopping at the first error or cancellation.
func (s *Snapshot) Each(ctx context.Context, fn func(schema.Chunk) error) error {
	cf, err := artifacts.OpenChunksAs(s.Ref.Dir, s.Manifest)
	if err != nil {
		return err
	}
	defer cf.Close()
	return cf.Each(ctx, func(c schema.Chunk) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(c)
	})
}

// Documents calls fn with each document's rows, in file order: the rows of
// a document are contiguous (the file is sorted by doc_path), so memory
// holds one document at a time. fn may keep the slice.
func (s *Snapshot) Documents(ctx context.Context, fn func([]schema.Chunk) error) error {
	var doc []schema.Chunk
	err := s.Each(ctx, func(c schema.Chunk) error {
		if len(doc) > 0 && doc[0].DocID != c.DocID {
			if err := fn(doc); err != nil {
				return err
			}
			doc = nil
		}
		doc = append(doc, c)
		return nil
	})
	if err != nil || len(doc) == 0 {
		return err
	}
	return fn(doc)
}

// scope checks that c belongs to the delivery's one tenant and source
// label, taking both from the first row when the command line names no
// tenant.
func (s *Snapshot) scope(c schema.Chunk, tenantGiven bool) error {
	if s.Ref.Rows == 0 {
		s.Label = c.SourceLabel
		if !tenantGiven {
			t, err := uuid.Parse(c.TenantID)
			if err != nil {
				return fmt.Errorf("its tenant_id %q is not a UUID: name the tenant with --tenant UUID", c.TenantID)
			}
			s.Tenant = t
		}
	}
	if c.SourceLabel != s.Label {
		return fmt.Errorf("chunk %s: source_label %q after %q: a delivery handles one source label", c.Key(), c.SourceLabel, s.Label)
	}
	if c.TenantID == "" {
		return nil
	}
	if t, err := uuid.Parse(c.TenantID); err == nil && t != s.Tenant {
		return fmt.Errorf("chunk %s: built for tenant %s, delivering for %s", c.Key(), t, s.Tenant)
	}
	return nil
}

func refOf(dir string, m artifacts.Manifest) (SnapshotRef, error) {
	b, err := artifacts.ManifestBytes(dir)
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

// checkIDScheme refuses a snapshot of an older schema before anything else
// is said of it: up to schema 3 a doc_id came from the path alone, so two
// sources of a tenant that hold the same path collide in a destination's
// key (a raw duplicate key error, half-way through a sync). A new index
// run writes this schema and reuses the old snapshot's headers and vectors.
func checkIDScheme(dir string) error {
	m, err := artifacts.ReadManifest(dir)
	if err != nil || m.SchemaVersion == artifacts.SchemaVersion || m.SchemaVersion == "" {
		return nil // verify names what is wrong with it
	}
	if v, err := strconv.Atoi(m.SchemaVersion); err == nil && v < 4 {
		return fmt.Errorf("snapshot %s has schema version %s, whose doc_id collides across sources: run ingest index again with this build (it reuses that snapshot's headers and vectors, so no model call), then deliver the new snapshot", dir, m.SchemaVersion)
	}
	return nil
}
