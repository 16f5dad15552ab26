package verify

import (
	"context"
	"fmt"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

// Inspection is what ingest inspect prints: the manifest's summary and the counts
// read back from chunks.parquet.
type Inspection struct {
	Dir      string             `json:"dir"`
	Manifest artifacts.Manifest `json:"manifest"`
	ReadBack struct {
		Documents int              `json:"documents"` // with at least one chunk
		Chunks    int              `json:"chunks"`
		Dims      int              `json:"dims"`
		Counts    artifacts.Counts `json:"counts"`
	} `json:"read_back"`
	// OK says the file agrees with the manifest: the same chunks, and no
	// more documents than it counts (one can yield no chunk).
	OK bool `json:"ok"`
}

// Inspect reads the snapshot in dir back: its manifest, and the counts of
// the chunks its chunks.parquet holds.
func Inspect(ctx context.Context, dir string) (*Inspection, error) {
	in := &Inspection{Dir: dir}
	var err error
	if in.Manifest, err = artifacts.ReadManifest(dir); err != nil {
		return nil, err
	}
	cf, err := artifacts.OpenChunksAs(dir, in.Manifest)
	if err != nil {
		return nil, err
	}
	defer cf.Close()
	docs := map[string]bool{}
	err = cf.Each(ctx, func(c schema.Chunk) error {
		in.ReadBack.Counts.Add(c)
		docs[c.DocPath] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	in.ReadBack.Documents, in.ReadBack.Chunks, in.ReadBack.Dims = len(docs), in.ReadBack.Counts.Chunks, cf.Dims
	// A document can be ingested and yield no chunk (a title and nothing
	// else): it counts in the manifest, not in the file. So the file may
	// name fewer documents, never more; verify agrees.
	in.OK = in.ReadBack.Chunks == in.Manifest.Counts.Chunks && in.ReadBack.Documents <= in.Manifest.Counts.Documents
	return in, nil
}

// Mismatch is the error of an inspection whose file does not agree with
// its manifest (nil when it does).
func (in *Inspection) Mismatch() error {
	if in.OK {
		return nil
	}
	m, rb := in.Manifest, in.ReadBack
	return fmt.Errorf("inspect %s: the file holds %d chunks of %d documents, the manifest says %d of %d",
		in.Dir, rb.Chunks, rb.Documents, m.Counts.Chunks, m.Counts.Documents)
}
