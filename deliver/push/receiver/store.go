package receiver

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/deliver"
	"github.com/ocean-safety/ingest/schema"
)

// envelope is a request body as the receiver reads it.
type envelope struct {
	Operation   string     `json:"operation"`
	TenantID    string     `json:"tenant_id"`
	SourceLabel string     `json:"source_label"`
	Documents   []document `json:"documents"`
	Deletes     []struct {
		DocID     string `json:"doc_id"`
		VersionID string `json:"version_id"`
		Reason    string `json:"reason"`
	} `json:"deletes"`
}

type document struct {
	DocID      string  `json:"doc_id"`
	VersionID  string  `json:"version_id"`
	DocPath    string  `json:"doc_path"`
	Title      string  `json:"title"`
	SourceURL  string  `json:"source_url"`
	ChunkCount int     `json:"chunk_count"`
	Chunks     []chunk `json:"chunks"`
}

type chunk struct {
	ChunkID       string    `json:"chunk_id"`
	Order         int       `json:"order"`
	Text          string    `json:"text"`
	ContentHash   string    `json:"content_hash"`
	ContextHeader string    `json:"context_header"`
	Embedding     []float64 `json:"embedding"`
}

// store is what the receiver holds: tenant → doc id → version id → the
// version.
type store map[string]map[string]map[string]*version

type version struct {
	path   string
	count  int
	chunks map[int]chunk
}

func (s store) apply(env envelope) {
	t := s[env.TenantID]
	if t == nil {
		t = map[string]map[string]*version{}
		s[env.TenantID] = t
	}
	for _, d := range env.Deletes {
		delete(t[d.DocID], d.VersionID)
		if len(t[d.DocID]) == 0 {
			delete(t, d.DocID)
		}
	}
	for _, d := range env.Documents {
		if t[d.DocID] == nil {
			t[d.DocID] = map[string]*version{}
		}
		v := t[d.DocID][d.VersionID]
		if v == nil {
			v = &version{chunks: map[int]chunk{}}
			t[d.DocID][d.VersionID] = v
		}
		v.path, v.count = d.DocPath, d.ChunkCount
		for _, c := range d.Chunks {
			v.chunks[c.Order] = c
		}
		for o := range v.chunks {
			if o >= v.count {
				delete(v.chunks, o)
			}
		}
	}
}

// Row is one stored chunk, as Dump and SnapshotRows list them.
type Row struct {
	Tenant, DocID, VersionID, DocPath string
	Order                             int
	ChunkID, ContentHash, Header      string
	Embedding                         string // SHA-256 of the float32 values
	Complete                          bool   // its version holds chunk_count chunks
}

func (r Row) String() string {
	return fmt.Sprintf("%s %s v%s #%d %s %s emb %s complete=%v", r.Tenant[:8], r.DocPath, r.VersionID[:8], r.Order,
		r.ChunkID[:8], r.ContentHash[:8], r.Embedding[:8], r.Complete)
}

// Counts are the receiver's rows, versions and documents.
type Counts struct {
	Rows, Versions, Documents int
}

// Counts counts what the receiver holds.
func (r *Receiver) Counts() Counts {
	r.mu.Lock()
	defer r.mu.Unlock()
	var c Counts
	for _, docs := range r.store {
		c.Documents += len(docs)
		for _, vs := range docs {
			c.Versions += len(vs)
			for _, v := range vs {
				c.Rows += len(v.chunks)
			}
		}
	}
	return c
}

// Dump lists every stored chunk in (doc_path, order) order.
func (r *Receiver) Dump() []Row {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Row
	for tenant, docs := range r.store {
		for doc, vs := range docs {
			for vid, v := range vs {
				for _, c := range v.chunks {
					f := make([]float32, len(c.Embedding))
					for i, x := range c.Embedding {
						f[i] = float32(x)
					}
					out = append(out, Row{Tenant: tenant, DocID: doc, VersionID: vid, DocPath: v.path, Order: c.Order,
						ChunkID: c.ChunkID, ContentHash: c.ContentHash, Header: c.ContextHeader, Embedding: vectorHash(f),
						Complete: len(v.chunks) == v.count})
				}
			}
		}
	}
	sortRows(out)
	return out
}

// SnapshotRows lists the chunks of the snapshot in dir as a receiver that
// holds exactly it would dump them, for tenant.
func SnapshotRows(dir, tenant string) ([]Row, error) {
	cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
	if err != nil {
		return nil, err
	}
	defer cf.Close()
	var out []Row
	err = cf.Each(context.Background(), func(c schema.Chunk) error {
		out = append(out, Row{Tenant: tenant, DocID: c.DocID, VersionID: deliver.VersionID(c.DocVersion).String(),
			DocPath: c.DocPath, Order: c.Order, ChunkID: c.ChunkID, ContentHash: c.ContentHash, Header: c.ContextHeader,
			Embedding: vectorHash(c.Embedding), Complete: true})
		return nil
	})
	sortRows(out)
	return out, err
}

func sortRows(rows []Row) {
	slices.SortFunc(rows, func(a, b Row) int {
		if c := strings.Compare(a.DocPath, b.DocPath); c != 0 {
			return c
		}
		if c := strings.Compare(a.VersionID, b.VersionID); c != 0 {
			return c
		}
		return a.Order - b.Order
	})
}

func vectorHash(v []float32) string {
	h := sha256.New()
	var b [4]byte
	for _, x := range v {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Diff says how the receiver's rows differ from want: "" when they are the
// same.
func Diff(got, want []Row) string {
	var b strings.Builder
	g, w := map[Row]bool{}, map[Row]bool{}
	for _, r := range got {
		g[r] = true
	}
	for _, r := range want {
		w[r] = true
	}
	n := 0
	for _, r := range got {
		if !w[r] && n < 10 {
			fmt.Fprintf(&b, "  extra:   %s\n", r)
			n++
		}
	}
	for _, r := range want {
		if !g[r] && n < 20 {
			fmt.Fprintf(&b, "  missing: %s\n", r)
			n++
		}
	}
	if b.Len() == 0 && len(got) != len(want) {
		fmt.Fprintf(&b, "  got %d rows, want %d (duplicates)\n", len(got), len(want))
	}
	return b.String()
}
