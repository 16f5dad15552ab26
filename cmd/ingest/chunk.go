package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/ocean-safety/ingest/chunking"
	"github.com/urfave/cli/v3"
)

// chunkLine is one line of `ingest chunk` output.
type chunkLine struct {
	Path        string   `json:"doc_path"` // the names chunks.parquet uses
	Order       int      `json:"chunk_order"`
	Kind        string   `json:"kind"`
	Element     string   `json:"element"`
	SectionPath []string `json:"section_path"`
	LineStart   int      `json:"line_start"`
	LineEnd     int      `json:"line_end"`
	TokenCount  int      `json:"token_count"`
	Oversize    bool     `json:"oversize,omitempty"`
	Text        string   `json:"text"`
}

func chunkCommand() *cli.Command {
	return &cli.Command{
		Name:      "chunk",
		Usage:     "show how files would be chunked, as JSON lines (for authors tuning their documents)",
		ArgsUsage: "FILE...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Usage: "YAML config file, read exactly as index reads it"},
			&cli.IntFlag{Name: "max", Usage: "override chunk.max"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() == 0 {
				return usage("chunk needs at least one FILE")
			}
			f, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			cfg := f.Run
			if cmd.IsSet("max") {
				cfg.Chunk.Max = cmd.Int("max")
			}
			ch, err := chunking.NewChunker(cfg.Chunk, cfg.TenantID)
			if err != nil {
				return settingsError(err)
			}
			p := chunking.NewParser(".", cfg.CorpusOptions())
			enc := json.NewEncoder(cmd.Root().Writer)
			enc.SetEscapeHTML(false)
			rejected := 0
			for _, path := range cmd.Args().Slice() {
				raw, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				parsed := p.ParseBytes(path, raw)
				chunks, diags := ch.Chunk(parsed)
				for _, d := range append(parsed.Diags, diags...) {
					fmt.Fprintln(cmd.Root().ErrWriter, d.String())
				}
				if parsed.Rejected {
					rejected++
				}
				for _, c := range chunks {
					line := chunkLine{Path: path, Order: c.Order, Kind: string(c.Kind), Element: string(c.Element), SectionPath: c.SectionPath,
						LineStart: c.LineStart, LineEnd: c.LineEnd, TokenCount: c.TokenCount, Oversize: c.Oversize, Text: c.Text}
					if err := enc.Encode(line); err != nil {
						return err
					}
				}
			}
			if rejected > 0 {
				return errPartial
			}
			return nil
		},
	}
}
