package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/ocean-safety/ingest/artifacts"
	"github.com/ocean-safety/ingest/cmd/ingest/internal/config"
	"github.com/ocean-safety/ingest/models"
	"github.com/ocean-safety/ingest/models/backends"
	"github.com/ocean-safety/ingest/publish/place"
	"github.com/ocean-safety/ingest/stages/settings"
)

// errEmbedderDiffers is an embedder that is not the snapshot's: its vectors
// would rank the snapshot's chunks by noise.
var errEmbedderDiffers = errors.New("embedder differs from the snapshot's")

func embedCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "snapshot", Usage: "snapshot folder or bucket URL/latest: embed with its embedder (manifest.embedder), refuse any other"},
		&cli.StringFlag{Name: "embedder", Usage: "builtin, " + backends.Specs(backends.Embed) + " (default: the snapshot's, else builtin)"},
	}
	flags = append(append(flags, addrFlags()...), timeoutFlag())
	return &cli.Command{
		Name:      "embed",
		Usage:     "print a query's vector as a JSON array, made by the snapshot's embedder (for pgvector, DuckDB, LanceDB queries)",
		ArgsUsage: `"TEXT"`,
		Flags:     flags,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			text := strings.TrimSpace(strings.Join(cmd.Args().Slice(), " "))
			if text == "" {
				return usage(`embed needs a "TEXT"`)
			}
			emb, err := embedderFor(ctx, cmd)
			if err != nil {
				return err
			}
			vs, err := emb.Embed(ctx, []string{text})
			if err != nil {
				return fmt.Errorf("embed: %w", err)
			}
			if len(vs) != 1 || len(vs[0]) != emb.Dims() {
				return fmt.Errorf("embed: got %d vectors, want 1 of %d dims", len(vs), emb.Dims())
			}
			b, err := json.Marshal(vs[0])
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(cmd.Root().Writer, "%s\n", b)
			return err
		},
	}
}

// embedderFor opens the embedder of --embedder, or of the snapshot's
// manifest, and checks it is the snapshot's: same name (model and digest)
// and width.
func embedderFor(ctx context.Context, cmd *cli.Command) (models.Embedder, error) {
	cfg := settings.DefaultConfig()
	bc := backendConfig(modelSettings(cmd, config.Default()), cfg)
	bc.LLM, bc.Embedder = "none", cmd.String("embedder") // "": the snapshot's
	var want *artifacts.Component
	if arg := cmd.String("snapshot"); arg != "" {
		m, err := place.Manifest(ctx, arg)
		if err != nil {
			return nil, err
		}
		want = &m.Embedder
		bc.Dims = m.Embedder.Dims
		if bc.Embedder == "" {
			bc.Embedder = models.Spec(m.Embedder.Name)
		}
	}
	if bc.Embedder == "" {
		bc.Embedder = "builtin"
	}
	_, emb, err := backends.Open(ctx, bc)
	if err != nil {
		return nil, settingsError(err)
	}
	if want != nil && (emb.Name() != want.Name || emb.Dims() != want.Dims) {
		return nil, usageError{fmt.Errorf("%w: --embedder %s is %s (%d dims), the snapshot was embedded with %s (%d dims)",
			errEmbedderDiffers, bc.Embedder, emb.Name(), emb.Dims(), want.Name, want.Dims)}
	}
	return emb, nil
}
