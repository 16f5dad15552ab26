package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/place"
	"github.com/ocean-safety/ingest/schema"
)

// inspection is what inspect prints: the manifest's summary and the counts
// read back from chunks.parquet.
type inspection struct {
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

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "print a snapshot's manifest summary and counts, read back from its files",
		ArgsUsage: "DIR",
		Flags:     []cli.Flag{jsonFlag("{dir, manifest, read_back: {documents, chunks, dims, counts}, ok}")},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("inspect needs one snapshot DIR")
			}
			dir, cleanup, err := place.Trusted(ctx, cmd.Args().First())
			if err != nil {
				return err
			}
			defer cleanup()
			in, err := inspect(ctx, dir)
			if err != nil {
				return err
			}
			in.Dir = place.Shown(cmd.Args().First()) // a bucket's URL as given, not the folder it was fetched to
			if cmd.Bool("json") {
				err = writeJSON(cmd.Root().Writer, in)
			} else {
				printInspection(cmd.Root().Writer, in)
			}
			if err != nil {
				return err
			}
			if !in.OK {
				m, rb := in.Manifest, in.ReadBack
				return fmt.Errorf("inspect %s: the file holds %d chunks of %d documents, the manifest says %d of %d",
					in.Dir, rb.Chunks, rb.Documents, m.Counts.Chunks, m.Counts.Documents)
			}
			return nil
		},
	}
}

func inspect(ctx context.Context, dir string) (*inspection, error) {
	in := &inspection{Dir: dir}
	var err error
	if in.Manifest, err = artifacts.ReadManifest(dir); err != nil {
		return nil, err
	}
	cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
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

func printInspection(w io.Writer, in *inspection) {
	m, rb := in.Manifest, in.ReadBack
	fmt.Fprintf(w, "snapshot %s\n", in.Dir)
	fmt.Fprintf(w, "  schema %s, tool %s, run %s, created %s\n", m.SchemaVersion, m.ToolVersion, m.RunID, m.CreatedAt)
	fmt.Fprintf(w, "  corpus fingerprint %s\n  config hash %s\n", m.CorpusFingerprint, m.ConfigHash)
	fmt.Fprintf(w, "  embedder %s (%d dims), headers %s, tokenizer %s, budget %d %s\n",
		m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, m.Tokenizer, m.ChunkMax, m.ChunkUnit)
	fmt.Fprintf(w, "  read back: %d chunks of %d documents (the manifest counts %d documents; one can yield no chunk), %d-dim vectors\n",
		rb.Chunks, rb.Documents, m.Counts.Documents, rb.Dims)
	fmt.Fprintf(w, "  by kind:    %s\n  by lang:    %s\n  by element: %s\n",
		formatCounts(rb.Counts.ByKind), formatCounts(rb.Counts.ByLang), formatCounts(rb.Counts.ByElement))
}
