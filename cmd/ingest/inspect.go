package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/schema"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:      "inspect",
		Usage:     "print a snapshot's manifest summary and counts, read back from its files",
		ArgsUsage: "DIR",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usage("inspect needs one snapshot DIR")
			}
			dir := cmd.Args().First()
			m, err := artifacts.ReadManifest(dir)
			if err != nil {
				return err
			}
			cf, err := artifacts.OpenChunks(filepath.Join(dir, artifacts.ChunksFile))
			if err != nil {
				return err
			}
			defer cf.Close()
			var got artifacts.Counts
			docs := map[string]bool{}
			err = cf.Each(ctx, func(c schema.Chunk) error {
				got.Add(c)
				docs[c.DocPath] = true
				return nil
			})
			if err != nil {
				return err
			}
			w := cmd.Root().Writer
			fmt.Fprintf(w, "snapshot %s\n", dir)
			fmt.Fprintf(w, "  schema %s, tool %s, run %s, created %s\n", m.SchemaVersion, m.ToolVersion, m.RunID, m.CreatedAt)
			fmt.Fprintf(w, "  corpus fingerprint %s\n  config hash %s\n", m.CorpusFingerprint, m.ConfigHash)
			fmt.Fprintf(w, "  embedder %s (%d dims), headers %s, tokenizer %s, budget %d %s\n",
				m.Embedder.Name, m.Embedder.Dims, m.HeaderWriter, m.Tokenizer, m.ChunkMax, m.ChunkUnit)
			fmt.Fprintf(w, "  read back: %d chunks of %d documents (the manifest counts %d documents; one can yield no chunk), %d-dim vectors\n", got.Chunks, len(docs), m.Counts.Documents, cf.Dims)
			fmt.Fprintf(w, "  by kind:    %s\n  by lang:    %s\n  by element: %s\n",
				formatCounts(got.ByKind), formatCounts(got.ByLang), formatCounts(got.ByElement))
			// A document can be ingested and yield no chunk (a title and
			// nothing else): it counts in the manifest, not in the file. So
			// the file may name fewer documents, never more; verify agrees.
			if got.Chunks != m.Counts.Chunks || len(docs) > m.Counts.Documents {
				return fmt.Errorf("inspect %s: the file holds %d chunks of %d documents, the manifest says %d of %d",
					dir, got.Chunks, len(docs), m.Counts.Chunks, m.Counts.Documents)
			}
			return nil
		},
	}
}
